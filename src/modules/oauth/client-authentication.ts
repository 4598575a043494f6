// Authenticates OAuth clients at the token and revocation endpoints, and slows down whoever
// guesses secrets: after a few failures from one source for one client id, that pair is locked
// for a short, growing time (at most a minute), while the rightful client from elsewhere is not.
// Attempts of one client id from one source take turns (a transaction-scoped advisory lock), so
// guesses sent in parallel are counted one after the other, and those past the limit are refused
// without their secret being tried. A client id is counted under its canonical (lowercase) form,
// so spelling an ApplicationId in other cases does not buy more tries.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { oauthErrors } from './oauth-errors.ts';
import { secretMatches, hashSecret } from './secrets.ts';

export interface AuthenticatedClient {
  id: string;
  applicationTypeId: number;
  secretVersion: number;
}

export const FREE_FAILURES = 5;
export const FAILURE_WINDOW_SECONDS = 900;
const MAX_LOCK_SECONDS = 60;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Compared against when the client id is unknown, so that both paths take the same time.
const DUMMY_HASH = hashSecret('not-a-secret');

const TURN = `select pg_advisory_xact_lock(hashtextextended($1 || '/' || $2 || '/' || $3, 7))`;

const LOCK_STATE = `select case when locked_until > now()
    then ceil(extract(epoch from (locked_until - now())))::int end as "retryAfter"
  from client_auth_failures where tenant_id = $1 and client_id = $2 and source = $3`;

const APP = `select id, application_type_id as "applicationTypeId", secret_version as "secretVersion",
    secret_hash as "secretHash" from oauth_apps where tenant_id = $1 and id = $2`;

// The statement's time, as its new row holds it, moved by add_seconds: Citus runs no function
// but immutable ones in an upsert's DO UPDATE (docs/design.md, "Citus").
const NOW = 'excluded.first_failed_at';

// Failures older than the window start a new count; from the FREE_FAILURES-th on, each one locks
// for 1, 2, 4 … seconds, capped at MAX_LOCK_SECONDS: after FREE_FAILURES wrong secrets, the next
// attempt is refused whatever secret it brings.
const RECORD_FAILURE = `
  insert into client_auth_failures as f (tenant_id, client_id, source, failures, first_failed_at)
  values ($1, $2, $3, 1, now())
  on conflict (tenant_id, client_id, source) do update set
    failures = case when f.first_failed_at < add_seconds(${NOW}, -${FAILURE_WINDOW_SECONDS}) then 1 else f.failures + 1 end,
    first_failed_at = case when f.first_failed_at < add_seconds(${NOW}, -${FAILURE_WINDOW_SECONDS}) then ${NOW} else f.first_failed_at end,
    locked_until = case
      when f.first_failed_at >= add_seconds(${NOW}, -${FAILURE_WINDOW_SECONDS}) and f.failures + 1 >= ${FREE_FAILURES}
      then add_seconds(${NOW}, least(${MAX_LOCK_SECONDS}, power(2, f.failures + 1 - ${FREE_FAILURES})))
      else null end`;

interface AppRow extends AuthenticatedClient {
  secretHash: string;
}

export class ClientAuthentication {
  private readonly database: DatabaseHandle;

  constructor(database: DatabaseHandle) {
    this.database = database;
  }

  async authenticate(
    tenantId: number,
    clientId: string,
    secret: string,
    source: string,
    challenge: boolean,
  ): Promise<AuthenticatedClient> {
    // Failures are counted per app: under its canonical id (lowercase), however the client spelt
    // it, since the app lookup ignores case. Other text names no app and is counted as sent.
    const canonical = UUID_PATTERN.test(clientId);
    const key = canonical ? clientId.toLowerCase() : clientId.slice(0, 200);
    const outcome = await this.database.rawTransaction(async (sql) => {
      await sql.query(TURN, [String(tenantId), key, source]);
      const [failures] = await sql.query<{ retryAfter: number | null }>(LOCK_STATE, [
        tenantId,
        key,
        source,
      ]);
      if (failures?.retryAfter) return { retryAfter: failures.retryAfter };
      const [app] = canonical ? await sql.query<AppRow>(APP, [tenantId, key]) : [];
      const matches = secretMatches(secret, app?.secretHash ?? DUMMY_HASH);
      if (!app || !matches) {
        await sql.query(RECORD_FAILURE, [tenantId, key, source]);
        return { failed: true as const };
      }
      // Only a client that failed before has a row to clear; the usual success path writes nothing.
      if (failures) await this.clear(sql, tenantId, key, source);
      return { client: app };
    });
    if ('retryAfter' in outcome) throw oauthErrors.slowDown(outcome.retryAfter ?? 1);
    if ('failed' in outcome) throw oauthErrors.invalidClient(challenge);
    const { id, applicationTypeId, secretVersion } = outcome.client;
    return { id, applicationTypeId, secretVersion };
  }

  private async clear(sql: RawSql, tenantId: number, key: string, source: string): Promise<void> {
    await sql.query(
      'delete from client_auth_failures where tenant_id = $1 and client_id = $2 and source = $3',
      [tenantId, key, source],
    );
  }
}
