// One shard per request (docs/operations.md, "Citus"): every statement that the hot paths and the
// search send for one tenant is a router query on Citus — the planner sends it to one shard group
// on one worker. The test records each statement that a walk through those requests sends (the
// app's background work, which runs outside them, is not recorded), explains each with the
// parameters it was sent with, and fails on a plan with more than one task. Runs when the suite's
// database is a Citus coordinator.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { recordingDatabase, type RecordedStatement } from '../support/recording-database.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/test-api.ts';

const source = inject('testDatabase');
const citus = source.engine === 'postgres' && source.citusWorkers !== undefined;

const statements: RecordedStatement[] = [];
/** Set while the walk's requests run: only their statements are recorded. */
const inRequest = new AsyncLocalStorage<true>();
let api: TestApi;
let acme: TestTenant;

beforeAll(async () => {
  if (!citus) return;
  api = await startTestApi({}, {}, (handle) =>
    recordingDatabase(handle, statements, () => inRequest.getStore() === true),
  );
  acme = await api.createTenant('acme');
  await api.createTenant('other');
});
afterAll(() => api?.close());

/** The request's answer, which must be a success. */
async function ok(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await api.call({ method, url, tenant: acme, ...(body ? { body } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? response.json<Record<string, unknown>>() : {};
}

/** Statements sent while `walk` runs, with the text of their plans. */
async function planned(walk: () => Promise<void>): Promise<{ text: string; plan: string }[]> {
  const from = statements.length;
  await inRequest.run(true, walk).catch((error: unknown) => {
    const failed = statements.slice(from).filter((s) => s.error);
    throw new Error(
      `${String(error)}\n${failed.map((s) => `${s.error}: ${s.text.replace(/\s+/g, ' ')}`).join('\n')}`,
    );
  });
  const sent = statements.slice(from).filter((s) => !s.script && explainable(s.text));
  const plans: { text: string; plan: string }[] = [];
  for (const statement of sent) {
    const rows = await api.database.handle.query<{ 'QUERY PLAN': string }>(
      `explain ${statement.text}`,
      statement.params,
    );
    plans.push({ text: statement.text, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
  }
  return plans;
}

function explainable(text: string): boolean {
  return /^\s*(with|select|insert|update|delete)\b/i.test(text);
}

/** The statements whose plan sends work to more than one shard: a task count above one anywhere. */
function multiShard(plans: { text: string; plan: string }[]): string[] {
  return plans
    .filter((p) => [...p.plan.matchAll(/Task Count: (\d+)/g)].some((m) => Number(m[1]) > 1))
    .map((p) => p.text.replace(/\s+/g, ' ').trim());
}

describe.runIf(citus)('every statement of a request on Citus', () => {
  let itemId: number;
  let categoryId: number;
  let brandId: number;
  let priceTypeId: number;
  let tagId: number;

  it('is a router query on the token, app and catalog write paths', async () => {
    const plans = await planned(async () => {
      await api.issueToken(acme.name, acme.appId, acme.secret);
      await ok('GET', `/management/oauth/apps/${acme.appId}`);
      priceTypeId = (
        await ok('POST', '/private/catalog/pricetype', {
          Description: 'Retail',
          PriceTypeSymbol: 'EUR',
        })
      ).Id as number;
      brandId = (await ok('POST', '/private/catalog/brand', { Name: 'Lumen' })).Id as number;
      categoryId = (await ok('POST', '/private/catalog/category', { Name: 'Lights' })).Id as number;
      tagId = (await ok('POST', '/private/catalog/tag', { Name: 'outdoor' })).Id as number;
      // Tables that record their history without events (their own triggers).
      await ok('POST', '/private/catalog/dynamicattributetypes', { Description: 'Colour' });
      await ok('POST', '/management/company/devicetypes', { Description: 'Kiosk' });
      const item = await ok('POST', '/private/catalog/item', {
        Title: 'Storm lantern',
        SKU: 'LAN-1',
        CategoryId: categoryId,
        BrandId: brandId,
        Prices: [{ PriceTypeId: priceTypeId, NormalPrice: 30, DiscountPrice: 25 }],
      });
      itemId = item.Id as number;
      await ok('POST', '/private/catalog/itemtagmapping', { ItemId: itemId, TagId: tagId });
      await ok('PUT', `/private/catalog/item/${itemId}`, {
        ...(await ok('GET', `/private/catalog/item/${itemId}`)),
        Title: 'Storm lantern, brass',
      });
      for (const title of ['Camp lantern', 'Desk lamp', 'Garden torch'])
        await ok('POST', '/private/catalog/item', { Title: title, CategoryId: categoryId });
    });
    expect(plans.length).toBeGreaterThan(20);
    expect(multiShard(plans)).toEqual([]);
  });

  it('is a router query on the catalog read paths and every kind of search', async () => {
    const plans = await planned(async () => {
      await ok('GET', `/private/catalog/item/${itemId}`);
      await ok('GET', '/private/catalog/items?skip=0&take=50');
      await ok('GET', '/private/catalog/items?skip=2&take=2');
      await ok('GET', '/private/catalog/categories');
      await ok('GET', '/private/catalog/brands');
      const navigations = { IncludeStaticNavigation: true, IncludeDynamicNavigation: true };
      for (const body of [
        { Query: 'lantern', ...navigations },
        { Query: 'lanturn' },
        { Query: 'lant', ...navigations },
        { BrandId: brandId, PriceTypeId: priceTypeId, MaxPrice: 300, ...navigations },
        { CategoryId: categoryId, Skip: 1, Take: 2, OrderedPropertyName: 'Title' },
      ])
        await ok('POST', '/private/catalog/items', body);
      await ok('GET', '/private/catalog/items/search?query=lantern');
    });
    expect(plans.length).toBeGreaterThan(10);
    expect(multiShard(plans)).toEqual([]);
  });

  it('is a router query on analytics, stores, the event feed and deletes', async () => {
    const plans = await planned(async () => {
      await ok('POST', '/analytics/logs', [
        { Counter: 'ItemView', ItemId: itemId },
        { Counter: 'ItemLike', RelatedItemId: itemId },
      ]);
      await ok('GET', '/private/analytics/servercounters/ItemView/logs?OADate=45000');
      const store = await ok('POST', '/management/company/store', {
        Name: 'Harbour',
        Location: { Longitude: 13.4, Latitude: 52.5 },
      });
      await ok('GET', '/company/stores/13.41;52.51/logicaldevices');
      await ok('GET', '/management/events');
      await ok('DELETE', `/management/company/store/${store.Id as number}`);
      await ok('DELETE', `/private/catalog/item/${itemId}`);
    });
    expect(plans.length).toBeGreaterThan(10);
    expect(multiShard(plans)).toEqual([]);
  });

  // The history's entries are written by triggers on the worker that holds the changed shard (so
  // within the request's shard group, never through the coordinator): each write of the walk
  // left its entry there, naming the app, whose change context reached the worker.
  it("records the walk's changes in the history on the workers, naming the app", async () => {
    const tenant = (await api.services.tenants.findByName(acme.name))!;
    const rows = await api.database.handle.query<{ resource: string; action: string }>(
      `select resource, action from change_history
        where tenant_id = $1 and actor_key = $2 order by id`,
      [tenant.id, `app:${acme.appId}`],
    );
    const kinds = new Set(rows.map((r) => `${r.resource}:${r.action}`));
    for (const kind of [
      'price_type:created',
      'brand:created',
      'category:created',
      'tag:created',
      'attribute_type:created',
      'device_type:created',
      'item:created',
      'item:updated',
      'store:created',
      'store:deleted',
      'item:deleted',
    ])
      expect(kinds, kind).toContain(kind);
  });
});
