// POST /analytics/logs (contract §5.6): every counter's validation and round trip, all or
// nothing, CreatedDate rules, the identity-token stamp, tenancy.
import { describe, expect, it } from 'vitest';
import { counterNamed } from '../../../src/modules/analytics/analytics-counters.ts';
import { AnalyticsService } from '../../../src/modules/analytics/analytics-service.ts';
import type { Principal } from '../../../src/http/authentication.ts';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { INGESTED, ingest, ingestOk, logsOk, oaDate, sample } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');

const DAY = '2026-03-10';

describe('POST /analytics/logs: round trip of every counter', () => {
  it.each(INGESTED.map((c) => [c.name, c] as const))('%s', async (_name, counter) => {
    const record = sample(counter, `${DAY}T08:00:00.123Z`);
    await ingestOk(api, acme, [record]);
    const page = await logsOk(api, acme, counter.name.toLowerCase(), `OADate=${oaDate(DAY)}`);
    const { Counter: _c, ...fields } = record;
    const expected = counter.name.startsWith('OmniShareFrom') ? fields : fields;
    expect(page.Logs).toEqual([{ ...expected, CreatedDate: `${DAY}T08:00:00.123Z` }]);
    expect(page.ContinuationToken).toBeNull();
  });

  it('answers absent fields as null and stamps CreatedDate with now when left out', async () => {
    const before = Date.now();
    await ingestOk(api, other, [{ Counter: 'ItemView', ItemId: 7 }]);
    const after = Date.now();
    // The day (UTC) of the stamp: that of `before`, or the next when midnight came in between.
    const oaDayOf = (ms: number) => Math.floor(ms / 86_400_000) + 25_569;
    const logs: Record<string, unknown>[] = [];
    for (let day = oaDayOf(before); day <= oaDayOf(after); day++)
      logs.push(...(await logsOk(api, other, 'ItemView', `OADate=${day}`)).Logs);
    const log = logs.at(-1)!;
    expect(log.ItemId).toBe(7);
    expect(log.ItemTitle).toBeNull();
    expect(log.PhysicalDeviceId).toBeNull();
    expect(Date.parse(log.CreatedDate as string)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(log.CreatedDate as string)).toBeLessThanOrEqual(after);
  });
});

describe('POST /analytics/logs: validation', () => {
  it.each(INGESTED.map((c) => [c.name, c] as const))(
    '%s: a wrong type, an unknown field and a missing required field are 400 by index and field',
    async (_name, counter) => {
      for (const spec of counter.fields) {
        const bad = {
          ...sample(counter),
          [spec.name]:
            spec.type === 'string' || spec.type === 'text' || spec.type === 'uuid' ? 12 : 'x',
        };
        const body = expectError(
          await ingest(api, acme, [sample(counter), bad]),
          400,
          'InvalidAnalyticsRecord',
        );
        expect(body.Errors).toContainEqual({
          Field: `[1].${spec.name}`,
          Message: expect.any(String) as string,
        });
      }
      expectError(
        await ingest(api, acme, [{ ...sample(counter), Nope: 1 }]),
        400,
        'InvalidAnalyticsRecord',
        '[0].Nope',
      );
      for (const spec of counter.fields.filter((s) => s.required)) {
        const { [spec.name]: _drop, ...missing } = sample(counter);
        expectError(
          await ingest(api, acme, [missing]),
          400,
          'InvalidAnalyticsRecord',
          `[0].${spec.name}`,
        );
      }
    },
  );

  it('refuses OmniShare, TrendingItem and unknown counters', async () => {
    expectError(
      await ingest(api, acme, [sample(counterNamed('OmniShare')!)]),
      400,
      'InvalidAnalyticsRecord',
      '[0].Counter',
    );
    expectError(
      await ingest(api, acme, [sample(counterNamed('TrendingItem')!)]),
      400,
      'InvalidAnalyticsRecord',
      '[0].Counter',
    );
    expectError(
      await ingest(api, acme, [{ Counter: 'Nope' }]),
      400,
      'InvalidAnalyticsRecord',
      '[0].Counter',
    );
    expectError(await ingest(api, acme, [{ ItemId: 1 }]), 400, 'ValidationFailed');
  });

  it('refuses a CreatedDate in the future beyond a minute of skew, and malformed dates', async () => {
    const view = { Counter: 'ItemView', ItemId: 1 };
    const future = new Date(Date.now() + 5 * 60_000).toISOString();
    expectError(
      await ingest(api, acme, [{ ...view, CreatedDate: future }]),
      400,
      'InvalidAnalyticsRecord',
      '[0].CreatedDate',
    );
    expectError(
      await ingest(api, acme, [{ ...view, CreatedDate: '2026-01-01' }]),
      400,
      'InvalidAnalyticsRecord',
      '[0].CreatedDate',
    );
    expectError(
      await ingest(api, acme, [{ ...view, CreatedDate: 'yesterday' }]),
      400,
      'InvalidAnalyticsRecord',
      '[0].CreatedDate',
    );
    const skewed = new Date(Date.now() + 30_000).toISOString();
    expect((await ingest(api, acme, [{ ...view, CreatedDate: skewed }])).statusCode).toBe(202);
    expect(
      (await ingest(api, acme, [{ ...view, CreatedDate: '2026-01-01T10:00:00+03:00' }])).statusCode,
    ).toBe(202);
  });

  it('refuses NUL characters in text fields (PostgreSQL text cannot hold them) by index and field', async () => {
    const view = { Counter: 'ItemView', ItemId: 1, CreatedDate: '2025-09-01T00:00:00Z' };
    expectError(
      await ingest(api, acme, [view, { ...view, PhysicalDeviceId: 'kiosk\u00001' }]),
      400,
      'InvalidAnalyticsRecord',
      '[1].PhysicalDeviceId',
    );
    expectError(
      await ingest(api, acme, [{ ...view, ItemTitle: 'a\u0000b' }]),
      400,
      'InvalidAnalyticsRecord',
      '[0].ItemTitle',
    );
  });

  it('refuses lone surrogates in text fields (the trending job could not read the record)', async () => {
    const view = { Counter: 'ItemView', ItemId: 1, CreatedDate: '2025-09-01T00:00:00Z' };
    expectError(
      await ingest(api, acme, [view, { ...view, ItemTitle: 'tea \ud800' }]),
      400,
      'InvalidAnalyticsRecord',
      '[1].ItemTitle',
    );
    // A surrogate pair (an emoji) is well-formed.
    expect((await ingest(api, acme, [{ ...view, ItemTitle: 'tea \ud83c\udf75' }])).statusCode).toBe(
      202,
    );
  });

  it('stores tabs, newlines, backslashes, quotes, non-ASCII text and dates before 2000 as sent', async () => {
    const day = '1999-12-31';
    const awkward = {
      Counter: 'ItemView',
      ItemId: 2_147_483_647,
      ItemTitle: 'tab\tnew\nline \\N back\\slash "quoted" çay 茶 🍵',
      PhysicalDeviceId: 'kiosk\t\\N\n1',
      StoreId: -2_147_483_648,
      CreatedDate: `${day}T23:59:59.999Z`,
    };
    await ingestOk(api, acme, [awkward]);
    const page = await logsOk(api, acme, 'ItemView', `OADate=${oaDate(day)}`);
    const { Counter: _c, ...fields } = awkward;
    expect(page.Logs).toEqual([expect.objectContaining(fields)]);
    const byDevice = await logsOk(
      api,
      acme,
      'ItemView',
      `OADate=${oaDate(day)}&physicalDeviceId=${encodeURIComponent(awkward.PhysicalDeviceId)}&storeId=-2147483648&itemId=2147483647`,
    );
    expect(byDevice.Logs).toHaveLength(1);
  });

  it('is all or nothing: one bad record stores none of the batch', async () => {
    const day = '2025-11-05';
    const good = { Counter: 'ItemLike', RelatedItemId: 5, CreatedDate: `${day}T10:00:00Z` };
    expectError(
      await ingest(api, acme, [good, good, { ...good, LikeCount: 'many' }]),
      400,
      'InvalidAnalyticsRecord',
      '[2].LikeCount',
    );
    expect((await logsOk(api, acme, 'ItemLike', `OADate=${oaDate(day)}`)).Logs).toEqual([]);
  });

  it('takes up to 1000 records; more, an empty batch or a non-array body is 400', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      Counter: 'ItemView',
      ItemId: i + 1,
      CreatedDate: '2025-10-01T00:00:00Z',
    }));
    await ingestOk(api, other, batch);
    expectError(await ingest(api, other, [...batch, batch[0]]), 400, 'ValidationFailed');
    expectError(await ingest(api, other, []), 400, 'ValidationFailed');
    expectError(await ingest(api, other, { Counter: 'ItemView' }), 400, 'ValidationFailed');
  });

  it('needs a token of this tenant (401)', async () => {
    const record = [{ Counter: 'ItemView', ItemId: 1 }];
    expect(
      (await api.call({ method: 'POST', url: '/analytics/logs', tenant: acme.name, body: record }))
        .statusCode,
    ).toBe(401);
    expect((await ingest(api, acme, record, other.token)).statusCode).toBe(401);
  });
});

describe('identity-token stamp', () => {
  it('writes PhysicalDeviceId, its description and the store into the counter store fields', async () => {
    const tenantId = (await api.services.tenants.findByName('acme'))!.id;
    const asked: [number, string][] = [];
    const service = new AnalyticsService(api.services.database, async (tenant, device) => {
      asked.push([tenant, device]);
      return device === 'kiosk-1'
        ? {
            PhysicalDeviceId: 'kiosk-1',
            PhysicalDeviceDescription: 'Entrance kiosk',
            StoreId: 12,
            StoreName: 'Kadikoy',
          }
        : undefined;
    });
    const principal = (deviceId: string): Principal => ({
      tenantId,
      appId: 'app',
      appTypeId: 4,
      scopes: new Set(['public']),
      jti: 'j',
      expiresAt: 0,
      deviceId,
    });
    const day = '2025-09-09';
    const at = `${day}T09:00:00.000Z`;
    await service.ingest(
      tenantId,
      [
        {
          Counter: 'AddedShoppingCartItem',
          ItemId: 3,
          PhysicalDeviceId: 'forged',
          AddedStoreId: 99,
          CreatedDate: at,
        },
        { Counter: 'ShoppingCartByCreatedDate', CreatedDate: at },
        { Counter: 'ItemView', ItemId: 3, CreatedDate: at },
      ],
      principal('kiosk-1'),
    );
    await service.ingest(
      tenantId,
      [{ Counter: 'ItemView', ItemId: 4, StoreId: 5, CreatedDate: at }],
      principal('gone'),
    );
    expect(asked).toEqual([
      [tenantId, 'kiosk-1'],
      [tenantId, 'gone'],
    ]);

    const added = (await logsOk(api, acme, 'AddedShoppingCartItem', `OADate=${oaDate(day)}`))
      .Logs[0]!;
    expect(added).toMatchObject({
      PhysicalDeviceId: 'kiosk-1',
      PhysicalDeviceDescription: 'Entrance kiosk',
      AddedStoreId: 12,
      AddedStoreName: 'Kadikoy',
    });
    const cart = (await logsOk(api, acme, 'ShoppingCartByCreatedDate', `OADate=${oaDate(day)}`))
      .Logs[0]!;
    expect(cart).toMatchObject({ PhysicalDeviceId: 'kiosk-1', StoredId: 12, StoreName: 'Kadikoy' });
    const views = (await logsOk(api, acme, 'ItemView', `OADate=${oaDate(day)}`)).Logs;
    expect(views[0]).toMatchObject({
      PhysicalDeviceId: 'kiosk-1',
      StoreId: 12,
      StoreName: 'Kadikoy',
    });
    // An unknown device: its id from the token, no store (what the body said is not kept).
    expect(views[1]).toMatchObject({
      PhysicalDeviceId: 'gone',
      PhysicalDeviceDescription: null,
      StoreId: null,
    });
    // The stamped store is the storeId filter.
    expect(
      (await logsOk(api, acme, 'ItemView', `OADate=${oaDate(day)}&storeId=12`)).Logs,
    ).toHaveLength(1);
  });
});
