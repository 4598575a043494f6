// What token checks leave behind is kept only while it can matter: revocations until the token
// would have expired anyway, invalidations until every instance has polled them (twice the
// token lifetime is far beyond), and failed client authentications once their window is over
// and no lock is pending. A scheduled job (every 10 minutes, once across instances) removes
// the rest, so these tables stay bounded.
import type { RawSql } from '../../db/connection/database.ts';
import { FAILURE_WINDOW_SECONDS } from './client-authentication.ts';

export const OAUTH_PRUNE_QUEUE = 'oauth.prune';

export interface PrunedOAuthRecords {
  revokedTokens: number;
  invalidations: number;
  clientAuthFailures: number;
}

export async function pruneOAuthRecords(
  sql: RawSql,
  tokenTtlSeconds: number,
): Promise<PrunedOAuthRecords> {
  const count = async (text: string, params: unknown[] = []) =>
    (
      await sql.query<{ n: number }>(
        `with gone as (${text} returning 1) select count(*)::int as n from gone`,
        params,
      )
    )[0]!.n;
  return {
    revokedTokens: await count('delete from revoked_tokens where expires_at < now()'),
    invalidations: await count(
      'delete from auth_invalidations where created_at < now() - make_interval(secs => $1)',
      [tokenTtlSeconds * 2],
    ),
    clientAuthFailures: await count(
      `delete from client_auth_failures
        where first_failed_at < now() - make_interval(secs => $1)
          and (locked_until is null or locked_until < now())`,
      [FAILURE_WINDOW_SECONDS],
    ),
  };
}
