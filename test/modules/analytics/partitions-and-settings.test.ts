// The analytics time zone setting and the monthly partitions (created ahead, rows moved out of the
// default partition, old months detached); the `omni analytics` commands are test/cli's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_QUEUE } from '../../../src/modules/analytics/analytics-module.ts';
import { startTestApi, type TestApi, type TestTenant } from '../../support/test-api.ts';
import { ingestOk, logsOk, oaDate } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

let api: TestApi;
let acme: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  acme = await api.createTenant('acme');
  other = await api.createTenant('other');
});
afterAll(() => api.close());

const SETTINGS = '/management/configuration/analytics';
const put = (tenant: TestTenant, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: SETTINGS, tenant, body, headers });

describe('GET|PUT /management/configuration/analytics', () => {
  it('is UTC by default; a PUT sets an IANA zone, with ETag and If-Match', async () => {
    const first = await api.call({ url: SETTINGS, tenant: acme });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ TimeZone: 'UTC' });
    const etag = first.headers.etag as string;
    const set = await put(acme, { TimeZone: 'Europe/Istanbul' }, { 'if-match': etag });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ TimeZone: 'Europe/Istanbul' });
    expect(set.headers.etag).not.toBe(etag);
    expect((await api.call({ url: SETTINGS, tenant: acme })).json()).toEqual({
      TimeZone: 'Europe/Istanbul',
    });
    expect((await put(acme, { TimeZone: 'UTC' }, { 'if-match': etag })).statusCode).toBe(412);
    expect((await api.call({ url: SETTINGS, tenant: other })).json()).toEqual({ TimeZone: 'UTC' });
  });

  it('refuses a name that is not an IANA zone, and bad bodies, with 400', async () => {
    expectError(await put(acme, { TimeZone: 'Mars/Olympus' }), 400, 'InvalidTimeZone', 'TimeZone');
    expectError(await put(acme, { TimeZone: '+03:00' }), 400, 'InvalidTimeZone');
    expectError(await put(acme, { TimeZone: 'UTC', X: 1 }), 400, 'ValidationFailed');
    expectError(await put(acme, {}), 400, 'ValidationFailed');
  });

  it('needs the management scope', async () => {
    const token = await api.issueToken(acme, acme.appId, acme.secret, 'public private');
    expect((await api.call({ url: SETTINGS, tenant: acme, token })).statusCode).toBe(403);
  });
});

const partitionOf = async (itemId: number) =>
  (
    await api.services.database.query<{ part: string }>(
      'select tableoid::regclass::text as part from analytics_logs where item_id = $1',
      [itemId],
    )
  ).map((r) => r.part.replace(/_\d{6,}$/, '')); // a Citus shard's name, as its table's

describe('monthly partitions', () => {
  it('exist for this month and three ahead from the start; a month without one still ingests', async () => {
    const partitionAt = (now: Date) =>
      `analytics_logs_p${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const before = new Date();
    await ingestOk(api, other, [{ Counter: 'ItemView', ItemId: 900 }]);
    // This month's, or the next month's if the month ended during the request.
    const after = new Date();
    expect(await partitionOf(900)).toEqual([
      expect.toBeOneOf([partitionAt(before), partitionAt(after)]),
    ]);
    await ingestOk(api, other, [
      { Counter: 'ItemView', ItemId: 901, CreatedDate: '2024-02-10T10:00:00Z' },
    ]);
    expect(await partitionOf(901)).toEqual(['analytics_logs_default']);
  });

  it("move a month's rows out of the default partition when its partition is created", async () => {
    await ingestOk(api, other, [
      { Counter: 'ItemView', ItemId: 902, CreatedDate: '2024-03-31T23:59:59Z' },
    ]);
    const created = await api.services.analytics.ensurePartitions(new Date('2024-02-15T00:00:00Z'));
    expect(created).toEqual([
      'analytics_logs_p202402',
      'analytics_logs_p202403',
      'analytics_logs_p202404',
      'analytics_logs_p202405',
    ]);
    expect(await partitionOf(901)).toEqual(['analytics_logs_p202402']);
    expect(await partitionOf(902)).toEqual(['analytics_logs_p202403']);
    expect(await api.services.analytics.ensurePartitions(new Date('2024-02-15T00:00:00Z'))).toEqual(
      [],
    );
    const page = await logsOk(api, other, 'ItemView', `OADate=${oaDate('2024-02-10')}`);
    expect(page.Logs.map((l) => l.ItemId)).toEqual([901]);
  });

  it('detach the months before a given one; their rows leave the reads but stay in a table', async () => {
    expect(await api.services.analytics.detachPartitionsBefore('2024-03')).toEqual([
      'analytics_logs_p202402',
    ]);
    expect((await logsOk(api, other, 'ItemView', `OADate=${oaDate('2024-02-10')}`)).Logs).toEqual(
      [],
    );
    const kept = await api.services.database.query('select item_id from analytics_logs_p202402');
    expect(kept).toEqual([{ item_id: 901 }]);
    expect(await partitionOf(902)).toEqual(['analytics_logs_p202403']);
    await expect(api.services.analytics.detachPartitionsBefore('2024-13')).rejects.toThrow(
      RangeError,
    );
  });

  it('are kept ahead by a daily cron job that also computes trending items', () => {
    const analytics = api.services.modules.find((m) => m.name === 'analytics')!;
    expect(analytics.queues?.find((q) => q.name === DAILY_QUEUE)?.cron).toBe('15 0 * * *');
  });
});
