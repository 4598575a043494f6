// Signs the JWT access and identity tokens of apps, and the access tokens of members signed in
// through a public client (the console).
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Scope } from '../../domain/principal.ts';
import { TOKEN_ALGORITHM, type SigningKeys } from './signing-keys.ts';
import type { IssuedMemberToken, IssuedToken, TokenClaims, TokenMember } from './token-claims.ts';

/** Every scope: a member's token is limited by its permissions, not by scopes. */
const MEMBER_SCOPE = 'public private management';

export class TokenIssuer {
  private readonly keys: SigningKeys;
  private readonly ttlSeconds: number;

  constructor(keys: SigningKeys, ttlSeconds: number) {
    this.keys = keys;
    this.ttlSeconds = ttlSeconds;
  }

  async issue(
    tenant: { id: number; baseUrl: string },
    app: { id: string; secretVersion: number },
    scopes: readonly Scope[],
    device?: { id: string; generation: string },
  ): Promise<IssuedToken> {
    const scope = scopes.join(' ');
    const claims: TokenClaims = {
      scope,
      // RFC 9068 §2.2 requires it; with no resource owner, the app is the subject too.
      client_id: app.id,
      ver: app.secretVersion,
      ...(device ? { dev: device.id, dvg: device.generation } : {}),
    };
    const accessToken = await this.sign(claims, tenant.baseUrl, app.id, randomUUID());
    return { accessToken, expiresIn: this.ttlSeconds, scope };
  }

  /** An access token for a member signed in through a public client (the console). */
  async issueMember(
    tenant: { id: number; baseUrl: string },
    clientId: string,
    member: TokenMember,
  ): Promise<IssuedMemberToken> {
    const jti = randomUUID();
    const claims: TokenClaims = {
      scope: MEMBER_SCOPE,
      ver: member.version,
      client_id: clientId,
      preferred_username: member.username,
      roles: member.roles,
      perm: member.permissions,
    };
    const accessToken = await this.sign(claims, tenant.baseUrl, member.id, jti);
    return {
      accessToken,
      expiresIn: this.ttlSeconds,
      scope: MEMBER_SCOPE,
      jti,
      expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
    };
  }

  private sign(claims: TokenClaims, baseUrl: string, subject: string, jti: string) {
    const { kid, key } = this.keys.signingKey();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'at+jwt' })
      .setIssuer(baseUrl)
      .setAudience(baseUrl)
      .setSubject(subject)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(key);
  }
}
