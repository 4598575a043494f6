// Retention of the change history: the tenant's setting (GET|PUT /management/history/settings),
// pruning by the daily job that keeps the chain verifiable from the oldest kept entry, and the
// monthly partitions (made ahead, an emptied past month dropped).
import { describe, expect, it } from 'vitest';
import { useTenant, useTestApi, type TestTenant } from '../../support/test-api.ts';
import { etagOf, expectError } from '../../support/expectations.ts';
import {
  entries,
  HISTORY_ENV,
  makeChanges,
  omniHistory,
  tenantId,
} from './history-chain-fixtures.ts';

const api = useTestApi({ ...HISTORY_ENV, HISTORY_RETENTION_DAYS: '400' });
const acme = useTenant(api, 'acme');
const short = useTenant(api, 'short');
const other = useTenant(api, 'other');

const SETTINGS = '/management/history/settings';
const put = (tenant: TestTenant, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: SETTINGS, tenant, body, headers });
const DAY = 86_400_000;

/** An entry written as the triggers write it, `daysAgo` days ago. */
async function oldEntry(tenant: TestTenant, daysAgo: number, resourceId: string): Promise<void> {
  await api.database.handle.query(
    `insert into change_history (tenant_id, changed_at, tx_id, resource, resource_id, action,
                                 version, actor, actor_key, context, data)
     values ($1, now() - make_interval(days => $2), $3, 'brand', $4, 'created', 1,
             '{"Type": "System"}', 'system:', '{}', '{"Name": "old"}')`,
    [await tenantId(api, tenant), daysAgo, Math.floor(Math.random() * 1e12), resourceId],
  );
}

describe('GET|PUT /management/history/settings', () => {
  it('is HISTORY_RETENTION_DAYS by default; a PUT sets the tenant its own, with ETag and If-Match', async () => {
    const first = await api.call({ url: SETTINGS, tenant: acme });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ RetentionDays: 400 });
    const etag = etagOf(first);
    const set = await put(short, { RetentionDays: 30 }, {});
    expect(set.statusCode, set.body).toBe(200);
    const changed = await put(acme, { RetentionDays: 90 }, { 'if-match': etag });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ RetentionDays: 90 });
    expect(etagOf(changed)).not.toBe(etag);
    expect((await api.call({ url: SETTINGS, tenant: acme })).json()).toEqual({ RetentionDays: 90 });
    expectError(
      await put(acme, { RetentionDays: 10 }, { 'if-match': etag }),
      412,
      'PreconditionFailed',
    );
    expect((await api.call({ url: SETTINGS, tenant: other })).json()).toEqual({
      RetentionDays: 400,
    });
  });

  it('refuses bad bodies with 400', async () => {
    expectError(await put(acme, { RetentionDays: 0 }), 400, 'ValidationFailed');
    expectError(await put(acme, { RetentionDays: 36_501 }), 400, 'ValidationFailed');
    expectError(await put(acme, { RetentionDays: '30' }), 400, 'ValidationFailed');
    expectError(await put(acme, { RetentionDays: 30, X: 1 }), 400, 'ValidationFailed');
    expectError(await put(acme, {}), 400, 'ValidationFailed');
  });

  it('needs the management scope', async () => {
    const token = await api.issueToken(acme, acme.appId, acme.secret, 'public private');
    expect((await api.call({ url: SETTINGS, tenant: acme, token })).statusCode).toBe(403);
    expect(
      (await put(acme, { RetentionDays: 5 }, { authorization: `Bearer ${token}` })).statusCode,
    ).toBe(403);
  });
});

describe('pruning', () => {
  it("deletes the entries older than the tenant's retention; verify passes from the oldest kept", async () => {
    // Pruning keeps a prefix of the chain: the new tenants' own first entries (their bootstrap
    // apps, newer than these) go, so that the old entries come first.
    await api.database.handle.query(
      'delete from change_history where tenant_id = any($1::int[]) and seq is null',
      [[await tenantId(api, other), await tenantId(api, acme)]],
    );
    await oldEntry(other, 500, 'o1');
    await oldEntry(other, 450, 'o2');
    await oldEntry(other, 100, 'o3');
    await makeChanges(api, other, 2);
    await api.services.history.sealer.sealAll();
    const before = await entries(api, other);
    // acme keeps 90 days (set above), other the default 400.
    await oldEntry(acme, 95, 'a1');
    await api.services.history.sealer.sealAll();
    expect(await api.services.history.retention.pruneAll()).toBe(3);
    const kept = await entries(api, other);
    expect(kept.map((e) => e.seq)).toEqual(before.filter((e) => e.seq! > 2).map((e) => e.seq));
    expect((await entries(api, acme)).some((e) => e.data === '{"Name": "old"}')).toBe(false);
    const verify = await omniHistory(api, 'verify', { tenant: other.name });
    expect(verify).toEqual({
      exitCode: 0,
      output: `The change history of "other" is intact: ${kept.length} entries (Sequence 3..${before.length}).\n`,
    });
    // Nothing left to prune: a second run deletes nothing.
    expect(await api.services.history.retention.pruneAll()).toBe(0);
  });

  it('prunes a chain to nothing and goes on from there', async () => {
    await makeChanges(api, short, 3);
    await api.services.history.sealer.sealAll();
    const count = (await entries(api, short)).length;
    // 31 days on, everything of a 30-day tenant has expired.
    await api.services.history.retention.pruneAll(new Date(Date.now() + 31 * DAY));
    expect(await entries(api, short)).toEqual([]);
    expect((await omniHistory(api, 'verify', { tenant: short.name })).exitCode).toBe(0);
    await makeChanges(api, short, 1);
    await api.services.history.sealer.sealAll();
    expect((await entries(api, short)).map((e) => e.seq)).toEqual([count + 1]);
    expect(await omniHistory(api, 'verify', { tenant: short.name })).toEqual({
      exitCode: 0,
      output: `The change history of "short" is intact: 1 entries (Sequence ${count + 1}..${count + 1}).\n`,
    });
  });

  it('keeps entries sealed after a newer one, and stops at a deleted entry for verify to name', async () => {
    await oldEntry(short, 40, 's1');
    await oldEntry(short, 40, 's2');
    await oldEntry(short, 40, 's3');
    await api.services.history.sealer.sealAll();
    const id = await tenantId(api, short);
    const [{ seq }] = (await api.database.handle.query<{ seq: number }>(
      `select seq from change_history where tenant_id = $1 and resource_id = 's2'`,
      [id],
    )) as [{ seq: number }];
    await api.database.handle.query(
      'delete from change_history where tenant_id = $1 and seq = $2',
      [id, seq],
    );
    await api.services.history.retention.pruneAll();
    // The newer entry sealed before them keeps them, and the gap is still there to be found.
    expect((await entries(api, short)).map((e) => e.seq).sort((a, b) => a! - b!)).toEqual([
      seq - 2,
      seq - 1,
      seq + 1,
    ]);
    expect(await omniHistory(api, 'verify', { tenant: short.name })).toEqual({
      exitCode: 1,
      output: `Sequence ${seq} is missing: that entry was deleted.`,
    });
  });
});

describe('monthly partitions', () => {
  const partitions = async () =>
    (
      await api.database.handle.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'change_history'::regclass order by 1`,
      )
    ).map((r) => r.name);
  const month = (d: Date) =>
    `change_history_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

  it('exist for this month and three ahead; the daily job makes the next', async () => {
    const now = new Date();
    const names = await partitions();
    expect(names).toContain(month(now));
    expect(names).toContain(
      month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1))),
    );
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15));
    const done = await api.services.history.daily(later);
    expect(done.created).toEqual([
      month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 4, 1))),
    ]);
  });

  it("move a month's entries out of the default partition, and drop a past month emptied by pruning", async () => {
    await oldEntry(acme, 30, 'moved');
    const past = new Date(Date.now() - 30 * DAY);
    expect(await api.services.history.ensurePartitions(past)).toContain(month(past));
    const [row] = await api.database.handle.query<{ part: string }>(
      `select tableoid::regclass::text as part from change_history where resource_id = 'moved'`,
    );
    expect(row!.part.replace(/_\d{6,}$/, '')).toBe(month(past));
    // Still holds acme's entry (90 days): kept.
    expect((await api.services.history.daily()).dropped).not.toContain(month(past));
    await put(acme, { RetentionDays: 10 });
    await api.services.history.sealer.sealAll();
    const done = await api.services.history.daily();
    expect(done.dropped).toContain(month(past));
    expect(await partitions()).not.toContain(month(past));
    expect((await omniHistory(api, 'verify', { tenant: acme.name })).exitCode).toBe(0);
  });
});
