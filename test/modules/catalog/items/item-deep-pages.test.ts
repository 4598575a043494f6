// Deep pages start from remembered positions (item-page-anchors.ts); they must stay exact when
// items are added or deleted in between, on this instance or on another one.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/app.ts';
import { createServices } from '../../../../src/module-wiring.ts';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import { CATALOG, createItem } from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { checkInjectedAnswers } from '../../../support/openapi-answers.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let tenantId: number;

async function idsAt(
  skip: number,
  take: number,
  through = api.app,
): Promise<{ ids: number[]; total: number }> {
  const response = await through.inject({
    url: `${CATALOG}/items?skip=${skip}&take=${take}`,
    headers: { host: acme.host, authorization: `Bearer ${acme.token}` },
  });
  expectStatus(response, 200);
  const body = response.json<{ Results: { Id: number }[]; TotalCount: number }>();
  return { ids: body.Results.map((r) => r.Id), total: body.TotalCount };
}

async function expectedIds(skip: number, take: number): Promise<number[]> {
  const rows = await api.database.handle.query<{ id: number }>(
    'select id from items where tenant_id = $1 order by id offset $2 limit $3',
    [tenantId, skip, take],
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  tenantId = (await api.services.tenants.findByName('acme'))!.id;
  await api.database.handle.query(
    `insert into items (tenant_id, title, sku) select $1, 'Item ' || g, 'SKU-' || g from generate_series(1, 2600) g`,
    [tenantId],
  );
});

describe('GET /private/catalog/items at deep offsets', () => {
  it('answers the same page from positions as a plain offset would', async () => {
    const first = await idsAt(2050, 7);
    const second = await idsAt(2050, 7);
    expect(first.ids).toEqual(await expectedIds(2050, 7));
    expect(second).toEqual(first);
    expect(first.total).toBe(2600);
    expect((await idsAt(2595, 20)).ids).toEqual(await expectedIds(2595, 20));
    expect((await idsAt(5000, 20)).ids).toEqual([]);
  });

  it('stays exact after an item before the page is deleted or a new one added', async () => {
    await idsAt(1500, 5);
    const [early] = await expectedIds(10, 1);
    expectStatus(
      await api.call({ method: 'DELETE', url: `${CATALOG}/item/${early}`, tenant: acme }),
      204,
    );
    expect(await idsAt(1500, 5)).toEqual({ ids: await expectedIds(1500, 5), total: 2599 });
    await createItem(api, acme);
    expect(await idsAt(2597, 5)).toEqual({ ids: await expectedIds(2597, 5), total: 2600 });
  });

  it('stays exact when another instance changed the items', async () => {
    const other = await buildApp(createServices(api.config, api.database.handle), {
      logStream: api.logs,
    });
    checkInjectedAnswers(other);
    try {
      await idsAt(1200, 3, other);
      const [early] = await expectedIds(0, 1);
      expectStatus(
        await api.call({ method: 'DELETE', url: `${CATALOG}/item/${early}`, tenant: acme }),
        204,
      );
      expect((await idsAt(1200, 3, other)).ids).toEqual(await expectedIds(1200, 3));
    } finally {
      await other.close();
    }
  });
});
