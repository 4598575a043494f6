// Concurrent writes on PostgreSQL (the embedded database runs one statement at a time, so these
// races cannot happen there). Each test makes the race happen for sure: a second connection holds
// the conflicting change open while the request waits on it, then commits.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createItem,
  getItem,
  sleep,
} from './catalog-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('concurrent catalog writes on PostgreSQL', () => {
  let api: TestApi;
  let acme: TestTenant;
  let tenantId: number;
  let other: pg.Client;

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('acme');
    tenantId = (await api.services.tenants.findByName('acme'))!.id;
    other = new pg.Client({ connectionString: api.database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await api?.close();
  });

  /** Whether a statement on this file's database is waiting for a lock. */
  async function someoneWaits(): Promise<boolean> {
    // On the app's pool, not on `other`: within a transaction pg_stat_activity is a snapshot.
    // On Citus the wait is on the worker that holds the tenant: the whole cluster's activity.
    const [citus] = await api.database.handle.query<{ found: boolean }>(
      "select to_regclass('pg_catalog.citus_stat_activity') is not null as found",
    );
    const activity = citus!.found ? 'citus_stat_activity' : 'pg_stat_activity';
    const [row] = await api.database.handle.query<{ n: number }>(
      `select count(*)::int as n from ${activity}
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return row!.n > 0;
  }

  /** Runs `hold` in an open transaction on the other connection, starts `request`, waits until
   * it blocks on what the transaction holds, then commits and answers the request's response. */
  async function whileHeld<T>(hold: string, params: unknown[], request: () => Promise<T>) {
    await other.query('begin');
    try {
      await other.query(hold, params);
      const pending = request();
      let settled = false;
      void pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      // Until the request waits on the row or index entry the transaction holds, however long
      // it takes to get there (the deadline only bounds a failure).
      const deadline = Date.now() + 20_000;
      while (!(await someoneWaits())) {
        if (settled) throw new Error('the request ended without waiting for the held change');
        if (Date.now() > deadline) throw new Error('the request did not reach the held change');
        await sleep(10);
      }
      await other.query('commit');
      return await pending;
    } catch (error) {
      await other.query('rollback').catch(() => {});
      throw error;
    }
  }

  it('two requests adding the same new dynamic attribute value both succeed (no 500)', async () => {
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme);
    // The other transaction adds the value first and commits while the request's insert waits.
    const response = await whileHeld(
      'insert into dynamic_attribute_values (tenant_id, type_id, value) values ($1, $2, $3)',
      [tenantId, type.Id, 'Teal'],
      () =>
        api.call({
          method: 'PUT',
          url: `${CATALOG}/items/${item.Id}/dynamicattributes`,
          tenant: acme,
          body: [{ TypeId: type.Id, Value: 'Teal' }],
        }),
    );
    expectStatus(response, 200);
    const [attribute] = response.json<{ TypeValueId: number; Value: string }[]>();
    expect(attribute!.Value).toBe('Teal');
    const { rows } = await other.query(
      'select id from dynamic_attribute_values where tenant_id = $1 and type_id = $2',
      [tenantId, type.Id],
    );
    // A client of its own reads the bigint id as pg does by default: as a string.
    expect(rows.map((r: { id: string }) => Number(r.id))).toEqual([attribute!.TypeValueId]);
  });

  it('group calls that would nest variant groups: the later one is refused with 409', async () => {
    const [a, b, c] = [
      await createItem(api, acme),
      await createItem(api, acme),
      await createItem(api, acme),
    ];
    // The other transaction makes A the default item of B (as `group A [B]` does) and commits
    // while `group C [A]` waits for A.
    const response = await whileHeld(
      'update items set default_item_id = $2 where tenant_id = $1 and id = any($3::int[])',
      [tenantId, a.Id, [a.Id, b.Id]],
      () =>
        api.call({
          method: 'POST',
          url: `${CATALOG}/items/${c.Id}/group`,
          tenant: acme,
          body: [a.Id],
        }),
    );
    expectError(response, 409, 'IsDefaultItem');
    expect((await getItem(api, acme, a.Id)).DefaultItemId).toBe(a.Id);
    expect((await getItem(api, acme, b.Id)).DefaultItemId).toBe(a.Id);
    expect((await getItem(api, acme, c.Id)).DefaultItemId).toBeNull();
  });

  it('a brand deleted between the check and the insert makes the item create 400, not 500', async () => {
    const brand = await createBrand(api, acme);
    const response = await whileHeld(
      'delete from brands where tenant_id = $1 and id = $2',
      [tenantId, brand.Id],
      () =>
        api.call({
          method: 'POST',
          url: `${CATALOG}/item`,
          tenant: acme,
          body: { Title: 'Racing', BrandId: brand.Id },
        }),
    );
    expectError(response, 400, 'ReferenceNotFound');
    const { rows } = await other.query(
      "select count(*)::int as n from items where tenant_id = $1 and title = 'Racing'",
      [tenantId],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('two creates of one category name at one place: the later is refused with 409', async () => {
    // The other transaction creates "Racing" at the top as a create request does (under the
    // tenant's category lock) and commits while the request waits for the lock.
    const response = await whileHeld(
      `with locked as (select pg_advisory_xact_lock(7331, $1))
       insert into categories (tenant_id, name) select $1, 'Racing' from locked`,
      [tenantId],
      () =>
        api.call({
          method: 'POST',
          url: `${CATALOG}/category`,
          tenant: acme,
          body: { Name: 'racing' },
        }),
    );
    expectError(response, 409, 'DuplicateCategoryName');
    const { rows } = await other.query(
      "select count(*)::int as n from categories where tenant_id = $1 and lower(name) = 'racing'",
      [tenantId],
    );
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('a price type symbol taken while a rename waits for the lock: the rename is refused with 409', async () => {
    const created = await api.call({
      method: 'POST',
      url: `${CATALOG}/pricetype`,
      tenant: acme,
      body: { Description: 'Franc', PriceTypeSymbol: 'CHF' },
    });
    expectStatus(created, 201);
    const franc = created.json<{ Id: number }>();
    const response = await whileHeld(
      `with locked as (select pg_advisory_xact_lock(7332, $1))
       insert into price_types (tenant_id, description, symbol) select $1, 'Krone', 'DKK' from locked`,
      [tenantId],
      () =>
        api.call({
          method: 'PUT',
          url: `${CATALOG}/pricetype/${franc.Id}`,
          tenant: acme,
          body: { Description: 'Franc', PriceTypeSymbol: 'dkk' },
        }),
    );
    expectError(response, 409, 'DuplicatePriceType');
  });

  it('two requests creating one price type symbol at once: one 201, one 409', async () => {
    const answers = await Promise.all(
      ['NOK', 'nok'].map((PriceTypeSymbol) =>
        api.call({
          method: 'POST',
          url: `${CATALOG}/pricetype`,
          tenant: acme,
          body: { Description: 'Krone', PriceTypeSymbol },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('mapping an item to a tag deleted meanwhile is 404, not 500', async () => {
    const item = await createItem(api, acme);
    const tag = await api.call({
      method: 'POST',
      url: `${CATALOG}/tag`,
      tenant: acme,
      body: { Name: 'Vanishing' },
    });
    const tagId = tag.json<{ Id: number }>().Id;
    const response = await whileHeld(
      'delete from tags where tenant_id = $1 and id = $2',
      [tenantId, tagId],
      () =>
        api.call({
          method: 'POST',
          url: `${CATALOG}/itemtagmapping`,
          tenant: acme,
          body: { ItemId: item.Id, TagId: tagId },
        }),
    );
    expectError(response, 404, 'NotFound');
  });
});
