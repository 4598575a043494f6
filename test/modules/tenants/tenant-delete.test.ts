// Deleting a tenant removes everything it owns and ends its tokens at once, on this instance and
// (through the invalidation poll) on every other; a tenant made again under the same name does
// not accept the old tenant's tokens.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createServices } from '../../../src/module-wiring.ts';
import { useTestApi, useTenant, LogLines, type TestTenant } from '../../support/test-api.ts';
import { waitFor } from '../integration/integration-fixtures.ts';
import { checkInjectedAnswers } from '../../support/openapi-answers.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

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

/** Rows of a tenant (by id) in every public table that has a tenant_id column. */
async function rowsOfTenant(tenantId: number): Promise<Record<string, number>> {
  const tables = await api.database.handle.query<{ table_name: string }>(
    `select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'tenant_id' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await api.database.handle.query<{ n: number }>(
      `select count(*)::int as n from ${table_name} where tenant_id = $1`,
      [tenantId],
    );
    if (row!.n > 0) counts[table_name] = row!.n;
  }
  return counts;
}

describe('deleting a tenant', () => {
  it('removes everything it owns, catalog included, and leaves other tenants alone', async () => {
    await seedCatalog(acme);
    const globexItem = await seedCatalog(globex);
    const acmeId = (await api.services.tenants.findByName('acme'))!.id;
    const globexId = (await api.services.tenants.findByName('globex'))!.id;
    expect(Object.keys(await rowsOfTenant(acmeId))).toContain('items');
    // The history's sealer makes a tenant's chain row in the background: made before counting.
    await api.services.history.sealer.sealAll();
    const globexBefore = await rowsOfTenant(globexId);

    expect(await api.services.tenants.delete('acme')).toBe(true);

    // Counted by the deleted tenant's id, in every table that holds tenant data.
    const left = await rowsOfTenant(acmeId);
    expect(Object.keys(left).filter((table) => table !== 'auth_invalidations')).toEqual([]);
    expect(await rowsOfTenant(globexId)).toEqual(globexBefore);
    expect((await api.call({ url: '/private/catalog/items', tenant: acme })).statusCode).toBe(404);
    const kept = await api.call({ url: `/private/catalog/item/${globexItem}`, tenant: globex });
    expect(kept.statusCode).toBe(200);
  });

  it('answers false for a tenant that does not exist', async () => {
    expect(await api.services.tenants.delete('nobody')).toBe(false);
  });
});

describe('the tokens of a deleted tenant', () => {
  const appsOf = (tenant: TestTenant, token: string) =>
    api.call({ url: '/management/oauth/apps', tenant: tenant.name, token });

  it('stop working at once on this instance, also when the tenant is made again', async () => {
    const initech = await api.createTenant('initech');
    expect((await appsOf(initech, initech.token)).statusCode).toBe(200); // verified and cached
    await api.services.tenants.delete('initech');
    expect((await appsOf(initech, initech.token)).statusCode).toBe(404);

    const again = await api.createTenant('initech');
    const refused = await appsOf(again, initech.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('invalid_token');
    expect((await appsOf(again, again.token)).statusCode).toBe(200);
  });

  it('stop working on another instance within its invalidation poll', async () => {
    const umbrella = await api.createTenant('umbrella');
    // A second instance on the same database, which has verified (and cached) the token.
    const other = await buildApp(createServices(api.config, api.database.handle), {
      logStream: new LogLines(),
    });
    checkInjectedAnswers(other);
    try {
      const onOther = () =>
        other.inject({
          url: '/management/oauth/apps',
          headers: { host: umbrella.host, authorization: `Bearer ${umbrella.token}` },
        });
      expect((await onOther()).statusCode).toBe(200);
      await api.services.tenants.delete('umbrella');
      await api.createTenant('umbrella');
      // The other instance still knew the old tenant row and the token; the poll ends both.
      const refused = await waitFor('the other instance to refuse the token', async () => {
        const response = await onOther();
        return response.statusCode === 200 ? undefined : response;
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
