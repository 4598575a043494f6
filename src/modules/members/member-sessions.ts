// Sessions of members signed in through a public client (the console): authorization codes
// (single use, 60 s, bound to client, redirect URI and PKCE challenge), and refresh tokens
// rotated on every use, each sign-in one family. Presenting a spent refresh token or a used code
// again revokes the whole family, with the access tokens issued in it (reuse detection); so does
// sign-out. Codes and refresh tokens are 256 random bits, kept only as SHA-256 hashes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { GrantOutcome, MemberTokens, SessionTokens } from './authorization-server.ts';
import { verifierMatches } from './console-client.ts';
import type { MemberGrant } from './member-service.ts';

export const CODE_TTL_SECONDS = 60;

/** The member as it is now; `sql` is the caller's open transaction. */
export type CurrentMember = (
  tenantId: number,
  memberId: string,
  sql: RawSql,
) => Promise<MemberGrant | undefined>;

interface Tenant {
  id: number;
  baseUrl: string;
}

const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

/** What a transaction came to: tokens, or a refusal to answer once it has committed (a revoked
 * family must stay revoked), with the members whose cached tokens to drop. */
type Outcome = { tokens: SessionTokens } | { refused: string; forget?: string[] };

// Deletes a family, answering the access tokens issued in it (revokeFamily revokes them).
const DELETE_FAMILY = `
  delete from refresh_tokens where tenant_id = $1 and family_id = $2
  returning member_id as "memberId", access_jti as jti, access_expires_at as "expiresAt"`;

export class MemberSessions {
  private readonly db: DatabaseHandle;
  private readonly tokens: MemberTokens;
  private readonly member: CurrentMember;
  private readonly refreshTtlSeconds: number;

  constructor(
    db: DatabaseHandle,
    tokens: MemberTokens,
    member: CurrentMember,
    refreshTtlSeconds: number,
  ) {
    this.db = db;
    this.tokens = tokens;
    this.member = member;
    this.refreshTtlSeconds = refreshTtlSeconds;
  }

  /** A code for a member who has just signed in. */
  async createCode(
    tenantId: number,
    request: { clientId: string; redirectUri: string; codeChallenge: string; memberId: string },
  ): Promise<string> {
    const code = newSecret();
    await this.db.query(
      `insert into authorization_codes
         (tenant_id, code_hash, client_id, redirect_uri, code_challenge, member_id, expires_at)
       values ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      [
        tenantId,
        digest(code),
        request.clientId,
        request.redirectUri,
        request.codeChallenge,
        request.memberId,
        CODE_TTL_SECONDS,
      ],
    );
    return code;
  }

  /** grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). */
  async exchangeCode(
    tenant: Tenant,
    request: { code: string; clientId: string; redirectUri: string; codeVerifier: string },
  ): Promise<GrantOutcome> {
    const outcome = await this.db.rawTransaction(async (sql): Promise<Outcome> => {
      const [row] = await sql.query<{
        clientId: string;
        redirectUri: string;
        challenge: string;
        memberId: string;
        expired: boolean;
        used: boolean;
        familyId: string | null;
      }>(
        `select client_id as "clientId", redirect_uri as "redirectUri",
            code_challenge as challenge, member_id as "memberId",
            expires_at <= now() as expired, used_at is not null as used, family_id as "familyId"
          from authorization_codes where tenant_id = $1 and code_hash = $2 for update`,
        [tenant.id, digest(request.code)],
      );
      if (!row || row.expired)
        return { refused: 'The authorization code is unknown or has expired.' };
      if (row.used) {
        const members = row.familyId ? await this.revokeFamily(sql, tenant.id, row.familyId) : [];
        return {
          refused: 'The authorization code was used already; the tokens issued for it are revoked.',
          forget: members,
        };
      }
      // A failed exchange spends the code too: it cannot be tried again with other values.
      const spend = (familyId: string | null) =>
        sql.query(
          'update authorization_codes set used_at = now(), family_id = $3 where tenant_id = $1 and code_hash = $2',
          [tenant.id, digest(request.code), familyId],
        );
      if (row.clientId !== request.clientId) {
        await spend(null);
        return { refused: 'The authorization code was issued to another client.' };
      }
      if (row.redirectUri !== request.redirectUri) {
        await spend(null);
        return {
          refused: 'redirect_uri differs from the one of the authorization request.',
        };
      }
      if (!verifierMatches(request.codeVerifier, row.challenge)) {
        await spend(null);
        return {
          refused: 'code_verifier does not match the code_challenge (PKCE, S256).',
        };
      }
      const member = await this.member(tenant.id, row.memberId, sql);
      if (!member) return { refused: 'The member no longer exists.' };
      const familyId = randomUUID();
      await spend(familyId);
      return { tokens: await this.issue(sql, tenant, request.clientId, member, familyId) };
    });
    if (!('refused' in outcome)) return outcome;
    for (const memberId of outcome.forget ?? []) this.tokens.forget(tenant.id, memberId);
    return { refused: outcome.refused };
  }

  /** grant_type=refresh_token (RFC 6749 §6), with rotation and reuse detection. */
  async refresh(
    tenant: Tenant,
    request: { refreshToken: string; clientId: string },
  ): Promise<GrantOutcome> {
    const outcome = await this.db.rawTransaction(async (sql): Promise<Outcome> => {
      const [row] = await sql.query<{
        familyId: string;
        clientId: string;
        memberId: string;
        expired: boolean;
        spent: boolean;
      }>(
        `select family_id as "familyId", client_id as "clientId", member_id as "memberId",
            expires_at <= now() as expired, spent_at is not null as spent
          from refresh_tokens where tenant_id = $1 and token_hash = $2 for update`,
        [tenant.id, digest(request.refreshToken)],
      );
      if (!row || row.expired)
        return { refused: 'The refresh token is unknown, revoked or expired.' };
      if (row.clientId !== request.clientId)
        return { refused: 'The refresh token was issued to another client.' };
      if (row.spent) {
        const members = await this.revokeFamily(sql, tenant.id, row.familyId);
        return {
          refused: 'The refresh token was used before: the session is revoked (sign in again).',
          forget: members,
        };
      }
      const member = await this.member(tenant.id, row.memberId, sql);
      if (!member) return { refused: 'The member no longer exists.' };
      await sql.query(
        'update refresh_tokens set spent_at = now() where tenant_id = $1 and token_hash = $2',
        [tenant.id, digest(request.refreshToken)],
      );
      return { tokens: await this.issue(sql, tenant, row.clientId, member, row.familyId) };
    });
    if (!('refused' in outcome)) return outcome;
    for (const memberId of outcome.forget ?? []) this.tokens.forget(tenant.id, memberId);
    return { refused: outcome.refused };
  }

  /**
   * Sign-out (RFC 7009): revokes the family of a refresh token, or of the access token it was
   * issued with. Answers false when the token is none of this client's member sessions.
   */
  async revoke(
    tenantId: number,
    request: { token: string; clientId: string; accessJti?: string },
  ): Promise<boolean> {
    const members = await this.db.rawTransaction(async (sql) => {
      const [row] = await sql.query<{ familyId: string; clientId: string }>(
        request.accessJti === undefined
          ? `select family_id as "familyId", client_id as "clientId" from refresh_tokens
              where tenant_id = $1 and token_hash = $2`
          : `select family_id as "familyId", client_id as "clientId" from refresh_tokens
              where tenant_id = $1 and access_jti = $2 limit 1`,
        [tenantId, request.accessJti ?? digest(request.token)],
      );
      if (!row || row.clientId !== request.clientId) return undefined;
      return this.revokeFamily(sql, tenantId, row.familyId);
    });
    for (const memberId of members ?? []) this.tokens.forget(tenantId, memberId);
    return members !== undefined;
  }

  /** Ends every session of a member inside the caller's transaction (password, roles, delete). */
  async endMemberSessions(sql: RawSql, tenantId: number, memberId: string): Promise<void> {
    await sql.query('delete from refresh_tokens where tenant_id = $1 and member_id = $2', [
      tenantId,
      memberId,
    ]);
    await sql.query('delete from authorization_codes where tenant_id = $1 and member_id = $2', [
      tenantId,
      memberId,
    ]);
    await this.tokens.invalidate(sql, tenantId, memberId);
  }

  /** Removes expired codes and refresh tokens (the members.prune job); answers how many. */
  async prune(): Promise<{ authorizationCodes: number; refreshTokens: number }> {
    // Kept an hour past expiry: a used code presented again still revokes its tokens meanwhile.
    const codes = await this.db.query(
      "delete from authorization_codes where expires_at < now() - interval '1 hour' returning 1",
    );
    const refreshTokens = await this.db.query(
      'delete from refresh_tokens where expires_at < now() returning 1',
    );
    return { authorizationCodes: codes.length, refreshTokens: refreshTokens.length };
  }

  private async issue(
    sql: RawSql,
    tenant: Tenant,
    clientId: string,
    member: MemberGrant,
    familyId: string,
  ): Promise<SessionTokens> {
    const access = await this.tokens.issue(tenant, clientId, member);
    const refreshToken = newSecret();
    await sql.query(
      `insert into refresh_tokens (tenant_id, token_hash, family_id, client_id, member_id,
          access_jti, access_expires_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [
        tenant.id,
        digest(refreshToken),
        familyId,
        clientId,
        member.id,
        access.jti,
        access.expiresAt,
        this.refreshTtlSeconds,
      ],
    );
    return {
      accessToken: access.accessToken,
      expiresIn: access.expiresIn,
      refreshToken,
      scope: access.scope,
    };
  }

  /** Deletes a family and revokes the access tokens issued in it that have not expired yet;
   * answers the members whose cached tokens to drop once the transaction commits. */
  private async revokeFamily(sql: RawSql, tenantId: number, familyId: string): Promise<string[]> {
    const rows = await sql.query<{ memberId: string; jti: string; expiresAt: Date }>(
      DELETE_FAMILY,
      [tenantId, familyId],
    );
    await this.tokens.revoke(
      sql,
      tenantId,
      rows.map((r) => ({ jti: r.jti, subjectId: r.memberId, expiresAt: r.expiresAt })),
    );
    return [...new Set(rows.map((r) => r.memberId))];
  }
}
