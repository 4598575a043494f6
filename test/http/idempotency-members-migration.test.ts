// Migration 0170 (members' idempotency keys): on a database that already holds apps' keys, the
// keys stored before it answer as they did, and members' keys start beside them, apart.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection/database.ts';
import { bundledMigrations, migrate } from '../../src/db/schema/migrate.ts';
import { IdempotencyStore } from '../../src/http/idempotency-store.ts';
import { openEmptyDatabase } from '../support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openEmptyDatabase();
});
afterAll(() => database.close());

describe('migration 0170_member_idempotency_keys', () => {
  it("keeps the apps' keys stored before it valid, and keeps members' keys apart", async () => {
    const all = await bundledMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0170'),
    );
    const [tenant] = await database.query<{ id: number }>(
      "insert into tenants (name) values ('acme') returning id",
    );
    const tenantId = tenant!.id;
    const appId = randomUUID();
    const memberId = randomUUID();
    await database.query(
      `insert into oauth_apps (tenant_id, id, name, application_type_id, secret_hash)
       values ($1, $2, 'Before', 3, 'hash')`,
      [tenantId, appId],
    );
    await database.query(
      `insert into members (tenant_id, id, username, name, password_hash, roles)
       values ($1, $2, 'alice', 'Alice', 'hash', '{owner}')`,
      [tenantId, memberId],
    );
    // An app's answered key and a running one, as the server before the migration left them.
    await database.query(
      `insert into idempotency_keys
         (tenant_id, app_id, key, fingerprint, claim, locked_until, status_code, headers, body, expires_at)
       values ($1, $2, 'answered', 'fp-1', $3, null, 201, '{"location":"/x/1"}', '\\x7b7d',
               now() + interval '1 day'),
              ($1, $2, 'running', 'fp-2', $4, now() + interval '1 minute', null, null, null,
               now() + interval '1 day')`,
      [tenantId, appId, randomUUID(), randomUUID()],
    );

    expect(await migrate(database, all)).toContain('0170_member_idempotency_keys');

    const store = new IdempotencyStore(database, { ttlSeconds: 3600, leaseSeconds: 60 });
    const app = { kind: 'app', id: appId } as const;
    const member = { kind: 'member', id: memberId } as const;
    expect(await store.claim(tenantId, app, 'answered', 'fp-1')).toEqual({
      kind: 'replay',
      answer: { statusCode: 201, headers: { location: '/x/1' }, body: Buffer.from('{}') },
    });
    expect(await store.claim(tenantId, app, 'answered', 'fp-other')).toEqual({ kind: 'reused' });
    expect(await store.claim(tenantId, app, 'running', 'fp-2')).toEqual({ kind: 'running' });

    // The member's key of the same name is its own: claimed afresh, answered, replayed.
    const claimed = await store.claim(tenantId, member, 'answered', 'fp-member');
    expect(claimed.kind).toBe('claimed');
    if (claimed.kind !== 'claimed') return;
    await store.complete(claimed.claim, {
      statusCode: 200,
      headers: {},
      body: Buffer.from('member'),
    });
    expect(await store.claim(tenantId, member, 'answered', 'fp-member')).toMatchObject({
      kind: 'replay',
      answer: { statusCode: 200, body: Buffer.from('member') },
    });
    // And the app's answer is untouched by it.
    expect(await store.claim(tenantId, app, 'answered', 'fp-1')).toMatchObject({
      kind: 'replay',
      answer: { statusCode: 201 },
    });

    // Expired keys of both kinds are pruned.
    await database.query("update idempotency_keys set expires_at = now() - interval '1 hour'");
    await database.query(
      "update member_idempotency_keys set expires_at = now() - interval '1 hour'",
    );
    expect(await store.prune()).toBe(3);
  });
});
