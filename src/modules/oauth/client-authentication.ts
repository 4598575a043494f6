// Authenticates OAuth clients at the token and revocation endpoints, and slows down whoever
// guesses secrets: after a few failures from one source for one client id, that pair is locked
// for a short, growing time (at most a minute), while the rightful client from elsewhere is not.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { OAuthError } from './oauth-error.ts';
import { secretMatches, hashSecret } from './secrets.ts';
import { clientAuthFailures, oauthApps } from './tables.ts';

export interface AuthenticatedClient {
  id: string;
  applicationTypeId: number;
  secretVersion: number;
}

export const FREE_FAILURES = 5;
const MAX_LOCK_SECONDS = 60;
const FAILURE_WINDOW_SECONDS = 900;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Compared against when the client id is unknown, so that both paths take the same time.
const DUMMY_HASH = hashSecret('not-a-secret');

export class ClientAuthentication {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async authenticate(
    tenantId: number,
    clientId: string,
    secret: string,
    source: string,
    challenge: boolean,
  ): Promise<AuthenticatedClient> {
    const key = clientId.slice(0, 200);
    const [failures] = await this.db
      .select({
        retryAfter: sql<
          number | null
        >`case when ${clientAuthFailures.lockedUntil} > now() then ceil(extract(epoch from (${clientAuthFailures.lockedUntil} - now())))::int end`,
      })
      .from(clientAuthFailures)
      .where(
        and(
          eq(clientAuthFailures.tenantId, tenantId),
          eq(clientAuthFailures.clientId, key),
          eq(clientAuthFailures.source, source),
        ),
      );
    if (failures?.retryAfter) {
      throw new OAuthError(
        429,
        'slow_down',
        'Too many failed client authentications; try again later.',
        {
          'Retry-After': String(Math.max(1, failures.retryAfter)),
        },
      );
    }
    const [app] = UUID_PATTERN.test(clientId)
      ? await this.db
          .select({
            id: oauthApps.id,
            applicationTypeId: oauthApps.applicationTypeId,
            secretVersion: oauthApps.secretVersion,
            secretHash: oauthApps.secretHash,
          })
          .from(oauthApps)
          .where(and(eq(oauthApps.tenantId, tenantId), eq(oauthApps.id, clientId.toLowerCase())))
      : [];
    const matches = secretMatches(secret, app?.secretHash ?? DUMMY_HASH);
    if (!app || !matches) {
      await this.recordFailure(tenantId, key, source);
      throw new OAuthError(
        401,
        'invalid_client',
        'Client authentication failed: unknown client or wrong secret.',
        challenge ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {},
      );
    }
    // Only a client that failed before has a row to clear; the usual success path writes nothing.
    if (failures)
      await this.db
        .delete(clientAuthFailures)
        .where(
          and(
            eq(clientAuthFailures.tenantId, tenantId),
            eq(clientAuthFailures.clientId, key),
            eq(clientAuthFailures.source, source),
          ),
        );
    return {
      id: app.id,
      applicationTypeId: app.applicationTypeId,
      secretVersion: app.secretVersion,
    };
  }

  private async recordFailure(tenantId: number, clientId: string, source: string): Promise<void> {
    // Failures older than the window start a new count; from the FREE_FAILURES-th on, each one
    // locks for 1, 2, 4 … seconds, capped at MAX_LOCK_SECONDS: after FREE_FAILURES wrong
    // secrets, the next attempt is refused whatever secret it brings.
    await this.db.execute(sql`
      insert into client_auth_failures as f (tenant_id, client_id, source, failures)
      values (${tenantId}, ${clientId}, ${source}, 1)
      on conflict (tenant_id, client_id, source) do update set
        failures = case when f.first_failed_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) then 1 else f.failures + 1 end,
        first_failed_at = case when f.first_failed_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) then now() else f.first_failed_at end,
        locked_until = case
          when f.first_failed_at >= now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) and f.failures + 1 >= ${FREE_FAILURES}
          then now() + make_interval(secs => least(${MAX_LOCK_SECONDS}, power(2, f.failures + 1 - ${FREE_FAILURES})))
          else null end`);
  }
}
