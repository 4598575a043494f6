import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';

let api: TestApi;
let acme: TestTenant;
let globex: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
});
afterAll(() => api.close());

async function seedCatalog(tenant: TestTenant): Promise<number> {
  const post = async (url: string, body: unknown) => {
    const response = await api.call({ method: 'POST', url, tenant, body });
    expect(response.statusCode).toBe(201);
    return response.json<{ Id: number }>();
  };
  const priceType = await post('/private/catalog/pricetype', {
    Description: 'USD',
    PriceTypeSymbol: '$',
  });
  const brand = await post('/private/catalog/brand', { Name: 'Brand' });
  const root = await post('/private/catalog/category', { Name: 'Root' });
  const child = await post('/private/catalog/category', {
    Name: 'Child',
    ParentCategoryId: root.Id,
  });
  const tag = await post('/private/catalog/tag', { Name: 'Tag' });
  const type = await post('/private/catalog/dynamicattributetypes', { Description: 'Color' });
  const master = await post('/private/catalog/item', {
    Title: 'Shirt',
    CategoryId: child.Id,
    BrandId: brand.Id,
    Prices: [{ NormalPrice: 10, PriceTypeId: priceType.Id }],
    DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
    Tags: [{ Id: tag.Id }],
  });
  const variant = await post('/private/catalog/item', {
    Title: 'Shirt, blue',
    CategoryId: child.Id,
  });
  await api.call({
    method: 'POST',
    url: `/private/catalog/items/${master.Id}/group`,
    tenant,
    body: [variant.Id],
  });
  return master.Id;
}

describe('deleting a tenant', () => {
  it('removes everything it owns, catalog included, and leaves other tenants alone', async () => {
    await seedCatalog(acme);
    const globexItem = await seedCatalog(globex);

    expect(await api.services.tenants.delete('acme')).toBe(true);

    const [left] = await api.database.handle.query<{ n: number }>(
      `select (select count(*) from items where tenant_id = t.id) + (select count(*) from categories where tenant_id = t.id) as n
         from tenants t where t.name = 'acme'`,
    );
    expect(left).toBeUndefined();
    expect((await api.call({ url: '/private/catalog/items', tenant: acme })).statusCode).toBe(404);
    const kept = await api.call({ url: `/private/catalog/item/${globexItem}`, tenant: globex });
    expect(kept.statusCode).toBe(200);
  });

  it('answers false for a tenant that does not exist', async () => {
    expect(await api.services.tenants.delete('nobody')).toBe(false);
  });
});
