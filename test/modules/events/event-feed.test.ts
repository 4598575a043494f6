// Events recorded with every write (in its transaction) and GET /management/events.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { useTestApi, useTenant, errorBody, type TestTenant } from '../../support/test-api.ts';
import { eventually, TestClock } from './webhook-receiver-fixtures.ts';

interface WireEvent {
  Id: string;
  Type: string;
  TenantId: string;
  OccurredAt: string;
  Resource: string;
  ResourceId: string;
  Data: Record<string, unknown>;
}

const clock = new TestClock();
const api = useTestApi({}, { events: { clock: clock.now } });
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
async function feed(
  tenant: TestTenant,
  query = '',
): Promise<{ Results: WireEvent[]; HasMore: boolean }> {
  const response = await api.call({ url: `/management/events${query}`, tenant });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every event of the tenant after `after`, all pages. */
async function eventsAfter(tenant: TestTenant, after?: string): Promise<WireEvent[]> {
  const all: WireEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = await feed(tenant, `?take=1000${cursor ? `&after=${cursor}` : ''}`);
    all.push(...page.Results);
    if (!page.HasMore) return all;
    cursor = page.Results.at(-1)!.Id;
  }
}

const lastId = async (tenant: TestTenant) => (await eventsAfter(tenant)).at(-1)?.Id;

async function created(
  url: string,
  body: unknown,
  tenant = acme,
): Promise<Record<string, unknown>> {
  const response = await api.call({ method: 'POST', url, tenant, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('events of catalog writes', () => {
  it('records item.created, one item.updated per write with its children, and item.deleted', async () => {
    const start = await lastId(acme);
    const priceType = await created('/private/catalog/pricetype', {
      Description: 'Retail',
      PriceTypeSymbol: 'EUR',
    });
    const item = await created('/private/catalog/item', {
      Title: 'Kettle',
      Prices: [{ NormalPrice: 10, PriceTypeId: priceType.Id }],
    });
    // One PUT replacing the item's fields and prices: one item.updated, with the final document.
    const put = await api.call({
      method: 'PUT',
      url: `/private/catalog/item/${String(item.Id)}`,
      tenant: acme,
      body: { Title: 'Kettle 2', Prices: [{ NormalPrice: 12, PriceTypeId: priceType.Id }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const prices = await api.call({
      method: 'PUT',
      url: `/private/catalog/items/${String(item.Id)}/prices`,
      tenant: acme,
      body: [{ NormalPrice: 15, PriceTypeId: priceType.Id }],
    });
    expect(prices.statusCode, prices.body).toBe(200);
    const gone = await api.call({
      method: 'DELETE',
      url: `/private/catalog/item/${String(item.Id)}`,
      tenant: acme,
    });
    expect(gone.statusCode).toBe(204);

    const events = (await eventsAfter(acme, start)).filter((e) => e.Resource === 'item');
    expect(events.map((e) => e.Type)).toEqual([
      'item.created',
      'item.updated',
      'item.updated',
      'item.deleted',
    ]);
    expect(events.every((e) => e.ResourceId === String(item.Id) && e.TenantId === 'acme')).toBe(
      true,
    );
    // The created event shows the item with its price (written in the same transaction).
    expect(events[0]!.Data).toMatchObject({
      Id: item.Id,
      Title: 'Kettle',
      Prices: [{ NormalPrice: 10 }],
    });
    expect(events[1]!.Data).toMatchObject({ Title: 'Kettle 2', Prices: [{ NormalPrice: 12 }] });
    expect(events[2]!.Data).toMatchObject({ Prices: [{ NormalPrice: 15 }] });
    expect(events[3]!.Data).toMatchObject({ Id: item.Id, Title: 'Kettle 2' });
    for (const event of events) {
      expect(event.Id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(Date.parse(event.OccurredAt)).not.toBeNaN();
    }
  });

  it('records brands, categories, tags, item tags and asset relations', async () => {
    const start = await lastId(acme);
    const brand = await created('/private/catalog/brand', { Name: 'Acme' });
    const category = await created('/private/catalog/category', { Name: 'Kitchen' });
    const tag = await created('/private/catalog/tag', { Name: 'sale' });
    const item = await created('/private/catalog/item', { Title: 'Pan', BrandId: brand.Id });
    const mapping = await api.call({
      method: 'POST',
      url: '/private/catalog/itemtagmapping',
      tenant: acme,
      body: { ItemId: item.Id, TagId: tag.Id },
    });
    expect(mapping.statusCode, mapping.body).toBe(201);
    const asset = await created('/management/storage/asset', {
      FileName: 'a.txt',
      MimeType: 'text/plain',
      FileBody: Buffer.from('hello').toString('base64'),
    });
    const relation = await api.call({
      method: 'POST',
      url: `/private/catalog/items/${String(item.Id)}/document?assetId=${String(asset.Id)}`,
      tenant: acme,
    });
    expect(relation.statusCode, relation.body).toBe(201);

    const events = await eventsAfter(acme, start);
    expect(events.map((e) => `${e.Type}:${e.ResourceId}`)).toEqual([
      `brand.created:${String(brand.Id)}`,
      `category.created:${String(category.Id)}`,
      `tag.created:${String(tag.Id)}`,
      `item.created:${String(item.Id)}`,
      `item.updated:${String(item.Id)}`,
      `asset.created:${String(asset.Id)}`,
      `item.updated:${String(item.Id)}`,
    ]);
    expect(events[0]!.Data).toEqual({ Id: brand.Id, Name: 'Acme' });
    expect(events[4]!.Data).toMatchObject({ Tags: [{ Id: tag.Id }] });
  });

  it('records stores, physical and logical devices and apps', async () => {
    const start = await lastId(acme);
    const store = await created('/management/company/store', {
      Name: 'Main',
      Location: { Longitude: 29, Latitude: 41 },
    });
    await created('/management/company/physicaldevices', {
      DeviceId: 'kiosk-1',
      StoreId: store.Id,
    });
    await created('/management/company/physicaldevices/kiosk-1/devices', {
      DeviceId: 'screen-1',
      Description: 'Screen',
    });
    const app = await created('/management/oauth/apps', { Name: 'Shop', ApplicationTypeId: 2 });
    const events = await eventsAfter(acme, start);
    expect(events.map((e) => `${e.Type}:${e.ResourceId}`)).toEqual([
      `store.created:${String(store.Id)}`,
      'physical_device.created:kiosk-1',
      'logical_device.created:screen-1',
      `app.created:${String(app.ApplicationId)}`,
    ]);
    expect(events[0]!.Data).toMatchObject({
      Name: 'Main',
      Location: { Longitude: 29, Latitude: 41 },
    });
    expect(events[3]!.Data).toMatchObject({ Name: 'Shop', ApplicationSecret: null });
  });

  it('records the integration endpoint’s creation and status changes', async () => {
    const start = await lastId(acme);
    const created = await api.call({
      method: 'POST',
      url: '/management/integration/endpoint',
      tenant: acme,
      body: { ServiceName: 'acme-events', ServiceTier: 0, AdminMail: 'ops@acme.example' },
    });
    expect(created.statusCode, created.body).toBe(201);
    // The provisioning job ends it in Status 2.
    const events = await eventually(async () => {
      const all = (await eventsAfter(acme, start)).filter(
        (e) => e.Resource === 'integration_endpoint',
      );
      return all.length >= 2 ? all : undefined;
    });
    expect(events.map((e) => e.Type)).toEqual([
      'integration_endpoint.created',
      'integration_endpoint.status_changed',
    ]);
    expect(events[0]!.Data).toMatchObject({ ServiceName: 'acme-events', Status: 1 });
    expect(events[1]!.Data).toMatchObject({ Status: 2 });
    expect(events[1]!.ResourceId).toBe('acme-events');
  });

  it("records a change even when its transaction's id was given out before (a promoted standby, a moved shard)", async () => {
    // Transaction ids come round again after a promotion or a shard move: a change must not be
    // folded into an event an earlier transaction of the same id recorded, and already delivered.
    const start = await lastId(acme);
    const tag = await created('/private/catalog/tag', { Name: 'before-the-move' });
    const [delivered] = await eventsAfter(acme, start);
    expect(delivered).toMatchObject({ Type: 'tag.created', ResourceId: String(tag.Id) });
    await api.database.handle.rawTransaction(async (sql) => {
      // The earlier event now carries this transaction's id, as it would after ids came round.
      await sql.query(
        `update events set tx_id = pg_current_xact_id()::text::bigint
          where resource = 'tag' and resource_id = $1`,
        [String(tag.Id)],
      );
      await sql.query("update tags set name = 'after-the-move' where id = $1", [tag.Id]);
    });
    const later = await eventsAfter(acme, delivered!.Id);
    expect(later.map((e) => [e.Type, e.Data.Name])).toEqual([['tag.updated', 'after-the-move']]);
    const [again] = await eventsAfter(acme, start);
    expect(again).toMatchObject({ Type: 'tag.created', Data: { Name: 'before-the-move' } });
  });

  it('records no event when the write fails', async () => {
    const start = await lastId(acme);
    // A body naming an unknown brand fails inside the item's transaction.
    const response = await api.call({
      method: 'POST',
      url: '/private/catalog/item',
      tenant: acme,
      body: { Title: 'Broken', BrandId: 999_999 },
    });
    expect(response.statusCode).toBe(400);
    // A transaction that writes and then fails leaves neither the row nor its event.
    const [row] = await api.database.handle.query<{ id: number }>(
      "select id from tenants where name = 'acme'",
    );
    const tenantId = row!.id;
    await expect(
      api.database.handle.rawTransaction(async (sql) => {
        await sql.query("insert into brands (tenant_id, name) values ($1, 'Rolled back')", [
          tenantId,
        ]);
        throw new Error('fails after the write');
      }),
    ).rejects.toThrow('fails after the write');
    expect(await eventsAfter(acme, start)).toEqual([]);
    const [count] = await api.database.handle.query<{ n: number }>(
      "select count(*)::int as n from brands where name = 'Rolled back'",
    );
    expect(count!.n).toBe(0);
  });
});

describe('GET /management/events', () => {
  it('pages by keyset: after the last Id, in order, with HasMore', async () => {
    const start = await lastId(acme);
    for (let i = 0; i < 5; i++) await created('/private/catalog/tag', { Name: `page-${i}` });
    const first = await feed(acme, `?take=2&after=${start}`);
    expect(first.Results).toHaveLength(2);
    expect(first.HasMore).toBe(true);
    const second = await feed(acme, `?take=2&after=${first.Results[1]!.Id}`);
    const third = await feed(acme, `?take=2&after=${second.Results[1]!.Id}`);
    expect(third.Results).toHaveLength(1);
    expect(third.HasMore).toBe(false);
    const names = [...first.Results, ...second.Results, ...third.Results].map((e) => e.Data.Name);
    expect(names).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
    const ids = [...first.Results, ...second.Results, ...third.Results].map((e) => e.Id);
    expect([...ids].sort()).toEqual(ids);
    expect(await feed(acme, `?after=${ids.at(-1)!}`)).toEqual({ Results: [], HasMore: false });
  });

  it('answers 400 ValidationFailed for a malformed after or take', async () => {
    for (const query of [
      '?after=123',
      '?after=evt_zz',
      '?after=evt_0000000000000000FFFFFFFFFFFFFFFF',
      // The pattern's form, but past the largest position (each half a signed 64-bit number).
      '?after=evt_0000000000000000ffffffffffffffff',
      '?after=evt_8000000000000000000000000000000a',
      '?take=0',
      '?take=1001',
    ]) {
      const response = await api.call({ url: `/management/events${query}`, tenant: acme });
      expect(response.statusCode, query).toBe(400);
      expect(errorBody(response).Code, query).toBe('ValidationFailed');
    }
    const largest = await feed(acme, '?after=evt_7fffffffffffffff7fffffffffffffff');
    expect(largest).toEqual({ Results: [], HasMore: false });
  });

  it('shows a tenant only its own events', async () => {
    await created('/private/catalog/tag', { Name: 'private-to-other' }, other);
    const acmeEvents = await eventsAfter(acme);
    expect(acmeEvents.some((e) => e.Data.Name === 'private-to-other')).toBe(false);
    const otherEvents = await eventsAfter(other);
    expect(otherEvents.map((e) => e.TenantId)).toEqual(otherEvents.map(() => 'other'));
    expect(otherEvents.some((e) => e.Data.Name === 'private-to-other')).toBe(true);
  });

  it('needs a management token', async () => {
    const anonymous = await api.call({ url: '/management/events', tenant: acme, token: null });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps events 30 days', async () => {
    await created('/private/catalog/tag', { Name: 'old-news' });
    expect((await eventsAfter(acme)).some((e) => e.Data.Name === 'old-news')).toBe(true);
    await api.services.events.dispatcher.prune(new Date(clock.now().getTime() + 31 * 86_400_000));
    expect(await eventsAfter(acme)).toEqual([]);
  });
});

// A committed event is placed in the feed at once, whatever other transactions run (on this
// database or another of the server), and an event committed after others were read is placed
// after them: a reader that follows the Ids never skips one (docs/design.md, "Events and
// webhooks"). The embedded database runs one transaction at a time.
const source = inject('testDatabase');
describe.skipIf(source.engine === 'pglite')(
  'the feed’s order with transactions running (PostgreSQL)',
  () => {
    /** A connection holding a transaction open, until `commit` is called. */
    async function openTransaction(url: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('begin');
      await client.query('select pg_current_xact_id()');
      return {
        client,
        commit: async () => {
          await client.query('commit');
          await client.end();
        },
      };
    }

    it('lists an event at once while a transaction of another database runs', async () => {
      await eventsAfter(acme);
      // The database the test databases are made from: another database of the same server.
      const elsewhere = await openTransaction(source.engine === 'postgres' ? source.url : '');
      try {
        const last = (await eventsAfter(acme)).at(-1)?.Id;
        await created('/private/catalog/tag', { Name: 'while-elsewhere-runs' });
        expect((await eventsAfter(acme, last)).map((e) => e.Data.Name)).toEqual([
          'while-elsewhere-runs',
        ]);
      } finally {
        await elsewhere.commit();
      }
    });

    it('places an event committed late after those already read, so that no reader skips it', async () => {
      const last = (await eventsAfter(acme)).at(-1)?.Id;
      const tenantId = (await api.services.tenants.findByName('acme'))!.id;
      // A write of this database that stays open while another commits and is read.
      const slow = await openTransaction(api.database.url ?? '');
      await slow.client.query('insert into tags (tenant_id, name) values ($1, $2)', [
        tenantId,
        'committed-late',
      ]);
      await created('/private/catalog/tag', { Name: 'committed-first' });
      const read = await eventsAfter(acme, last);
      expect(read.map((e) => e.Data.Name)).toEqual(['committed-first']);
      await slow.commit();
      expect((await eventsAfter(acme, read.at(-1)!.Id)).map((e) => e.Data.Name)).toEqual([
        'committed-late',
      ]);
    });
  },
);
