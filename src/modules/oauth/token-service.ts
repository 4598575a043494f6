// Issues and verifies the JWT access and identity tokens (contract §3). Verified tokens are
// cached until they expire so a request pays no signature check; revocation, app deletion and
// secret rotation drop them at once here and, through auth_invalidations, within seconds on
// every other instance.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  SignJWT,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
} from 'jose';
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle, RawSql } from '../../db/database.ts';
import {
  InvalidTokenError,
  type Principal,
  type Scope,
  type TokenVerifier,
} from '../../domain/principal.ts';
import { SigningKeys, TOKEN_ALGORITHM } from './signing-keys.ts';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
}

export interface TokenClaims extends JWTPayload {
  scope: string;
  ver: number;
  dev?: string;
  /** The generation of the `dev` device row the token was issued to. */
  dvg?: string;
  /** A member's token (browser sign-in): the client it was issued to (`console`); `sub` is the
   * member's id and `ver` the member's security version. */
  client_id?: string;
  /** A member's token: its roles, and the permissions they grant (route-permissions.ts). */
  roles?: string[];
  perm?: string[];
  preferred_username?: string;
}

/** A member as its tokens carry it (the members module keeps members). */
export interface TokenMember {
  id: string;
  username: string;
  /** Moves when the member's password or roles change: older tokens stop working. */
  version: number;
  roles: string[];
  permissions: string[];
}

export interface IssuedMemberToken extends IssuedToken {
  jti: string;
  expiresAt: Date;
}

/** Every scope: a member's token is limited by its permissions, not by scopes. */
const MEMBER_SCOPE = 'public private management';

interface CachedToken {
  audience: string;
  principal: Principal;
}

/** What token verification needs of other modules (passed in by app.ts). */
export interface TokenNeeds {
  /** Another instance deleted a tenant: forget what this instance cached of it. */
  forgetTenant(tenantId: number): void;
  /** The member a member's token names, as it is now, or undefined when it is gone. */
  member(tenantId: number, memberId: string): Promise<TokenMember | undefined>;
}

const POLL_INTERVAL_MS = 2_000;
const KEY_RELOAD_EVERY_POLLS = 15;
const KEY_RELOAD_MIN_INTERVAL_MS = 1_000;

const appKey = (tenantId: number, appId: string) => `${tenantId}/${appId}`;

export class TokenService implements TokenVerifier {
  readonly keys: SigningKeys;
  private readonly db: DatabaseHandle;
  private readonly ttlSeconds: number;
  private readonly needs: TokenNeeds;
  private readonly log: () => FastifyBaseLogger | undefined;
  // Cached tokens by app and apps by tenant, so that an invalidation finds its tokens without
  // walking the whole cache; entries leave the index when the cache drops them.
  private readonly tokensByApp = new Map<string, Set<string>>();
  private readonly appsByTenant = new Map<number, Set<string>>();
  private readonly cache = new LRUCache<string, CachedToken>({
    max: 50_000,
    ttlAutopurge: false,
    dispose: (entry, token) => this.unindex(token, entry.principal),
  });
  /** Bumped by every invalidation, so a verification that raced one does not cache its result. */
  private generation = 0;
  private lastSeq = 0;
  private polls = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastKeyReload = 0;

  constructor(
    db: DatabaseHandle,
    ttlSeconds: number,
    needs: TokenNeeds,
    log: () => FastifyBaseLogger | undefined = () => undefined,
  ) {
    this.db = db;
    this.ttlSeconds = ttlSeconds;
    this.needs = needs;
    this.log = log;
    this.keys = new SigningKeys(db, ttlSeconds);
  }

  async start(): Promise<void> {
    await this.keys.load();
    const [row] = await this.db.query<{ seq: string }>(
      'select coalesce(max(seq), 0)::text as seq from auth_invalidations',
    );
    this.lastSeq = Number(row?.seq ?? 0);
    this.timer = setInterval(
      () =>
        void this.poll().catch((error: unknown) =>
          this.log()?.error(
            { err: error },
            'token invalidation poll failed; revocations from other instances wait for the next one',
          ),
        ),
      POLL_INTERVAL_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async issue(
    tenant: { id: number; baseUrl: string },
    app: { id: string; secretVersion: number },
    scopes: readonly Scope[],
    device?: { id: string; generation: string },
  ): Promise<IssuedToken> {
    const { kid, key } = this.keys.signingKey();
    const scope = scopes.join(' ');
    const claims: TokenClaims = {
      scope,
      ver: app.secretVersion,
      ...(device ? { dev: device.id, dvg: device.generation } : {}),
    };
    const accessToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'at+jwt' })
      .setIssuer(tenant.baseUrl)
      .setAudience(tenant.baseUrl)
      .setSubject(app.id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(key);
    return { accessToken, expiresIn: this.ttlSeconds, scope };
  }

  /** An access token for a member signed in through a public client (the console). */
  async issueMember(
    tenant: { id: number; baseUrl: string },
    clientId: string,
    member: TokenMember,
  ): Promise<IssuedMemberToken> {
    const { kid, key } = this.keys.signingKey();
    const jti = randomUUID();
    const claims: TokenClaims = {
      scope: MEMBER_SCOPE,
      ver: member.version,
      client_id: clientId,
      preferred_username: member.username,
      roles: member.roles,
      perm: member.permissions,
    };
    const accessToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'at+jwt' })
      .setIssuer(tenant.baseUrl)
      .setAudience(tenant.baseUrl)
      .setSubject(member.id)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(key);
    return {
      accessToken,
      expiresIn: this.ttlSeconds,
      scope: MEMBER_SCOPE,
      jti,
      expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
    };
  }

  /** The principal of a bearer token presented on this tenant's host, or InvalidTokenError. */
  async verify(token: string, tenant: { id: number; baseUrl: string }): Promise<Principal> {
    const cached = this.verifyCached(token, tenant);
    if (cached) return cached;
    const generation = this.generation;
    const claims = await this.verifySignature(token, tenant.baseUrl);
    const principal = await this.checkStillValid(claims, tenant.id);
    const ttl = principal.expiresAt - Date.now();
    if (generation === this.generation && ttl > 0) {
      this.cache.set(token, { audience: tenant.baseUrl, principal }, { ttl });
      this.index(token, principal);
    }
    return principal;
  }

  /** The principal of a token verified before (InvalidTokenError if it no longer holds), or
   * undefined when this instance has not verified it yet. */
  verifyCached(token: string, tenant: { id: number; baseUrl: string }): Principal | undefined {
    const cached = this.cache.get(token);
    if (!cached) return undefined;
    // The same base URL with another id: the tenant was deleted and made again under its name.
    if (cached.audience !== tenant.baseUrl || cached.principal.tenantId !== tenant.id)
      throw new InvalidTokenError('The token was issued for another tenant.');
    if (cached.principal.expiresAt <= Date.now()) {
      this.cache.delete(token);
      throw new InvalidTokenError('The token has expired.');
    }
    return cached.principal;
  }

  /** Verifies signature and claims, ignoring app state: used by revocation (RFC 7009). */
  async verifySignature(
    token: string,
    baseUrl: string,
    options: { allowExpired?: boolean } = {},
  ): Promise<TokenClaims> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new InvalidTokenError('The token is malformed.');
    }
    if (this.keys.verificationKey(kid) === undefined) await this.reloadKeysSoon();
    const key = this.keys.verificationKey(kid);
    if (!key) throw new InvalidTokenError('The token was not signed by this server.');
    try {
      const { payload } = await jwtVerify<TokenClaims>(token, key, {
        issuer: baseUrl,
        audience: baseUrl,
        algorithms: [TOKEN_ALGORITHM],
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        ...(options.allowExpired ? { currentDate: new Date(0) } : {}),
      });
      if (typeof payload.scope !== 'string' || typeof payload.ver !== 'number') {
        throw new InvalidTokenError('The token is malformed.');
      }
      return payload;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof joseErrors.JWTExpired)
        throw new InvalidTokenError('The token has expired.');
      if (
        error instanceof joseErrors.JWTClaimValidationFailed &&
        (error.claim === 'aud' || error.claim === 'iss')
      ) {
        throw new InvalidTokenError('The token was issued for another tenant.');
      }
      throw new InvalidTokenError('The token is malformed or its signature does not verify.');
    }
  }

  private async checkStillValid(claims: TokenClaims, tenantId: number): Promise<Principal> {
    if (claims.client_id !== undefined) return this.checkMemberStillValid(claims, tenantId);
    const jti = claims.jti!;
    const [state] = await this.db.prepared<{
      secretVersion: number;
      appTypeId: number;
      revoked: boolean;
    }>(
      'oauth_token_state',
      `select secret_version as "secretVersion", application_type_id as "appTypeId",
              exists (select 1 from revoked_tokens r where r.tenant_id = $1 and r.jti = $3) as revoked
         from oauth_apps where tenant_id = $1 and id = $2`,
      [tenantId, claims.sub!, jti],
    );
    if (!state) throw new InvalidTokenError('The app of this token no longer exists.');
    if (state.secretVersion !== claims.ver)
      throw new InvalidTokenError("The app's secret or type changed after this token was issued.");
    if (state.revoked) throw new InvalidTokenError('The token has been revoked.');
    return {
      tenantId,
      appId: claims.sub!,
      appTypeId: state.appTypeId,
      scopes: new Set(claims.scope.split(' ').filter(Boolean) as Scope[]),
      jti,
      expiresAt: claims.exp! * 1000,
      ...(claims.dev ? { deviceId: claims.dev } : {}),
      ...(typeof claims.dvg === 'string' ? { deviceGeneration: claims.dvg } : {}),
    };
  }

  private async checkMemberStillValid(claims: TokenClaims, tenantId: number): Promise<Principal> {
    const jti = claims.jti!;
    if (!Array.isArray(claims.perm) || typeof claims.client_id !== 'string')
      throw new InvalidTokenError('The token is malformed.');
    const [member, [revoked]] = await Promise.all([
      this.needs.member(tenantId, claims.sub!),
      this.db.prepared<{ jti: string }>(
        'oauth_token_revoked',
        'select jti from revoked_tokens where tenant_id = $1 and jti = $2',
        [tenantId, jti],
      ),
    ]);
    if (!member) throw new InvalidTokenError('The member of this token no longer exists.');
    if (member.version !== claims.ver)
      throw new InvalidTokenError(
        "The member's password or roles changed after this token was issued.",
      );
    if (revoked) throw new InvalidTokenError('The token has been revoked (signed out).');
    return {
      tenantId,
      appId: claims.client_id,
      appTypeId: 0,
      scopes: new Set(claims.scope.split(' ').filter(Boolean) as Scope[]),
      jti,
      expiresAt: claims.exp! * 1000,
      memberId: claims.sub!,
      permissions: new Set(claims.perm),
    };
  }

  /** Revokes one token (RFC 7009); takes effect here at once, elsewhere at the next poll. */
  async revoke(tenantId: number, claims: TokenClaims): Promise<void> {
    await this.db.rawTransaction(async (tx) => {
      await tx.query(
        `insert into revoked_tokens (tenant_id, jti, expires_at) values ($1, $2, $3)
         on conflict do nothing`,
        [tenantId, claims.jti!, new Date(claims.exp! * 1000)],
      );
      await tx.query(
        'insert into auth_invalidations (tenant_id, app_id, jti) values ($1, $2, $3)',
        [tenantId, claims.sub!, claims.jti!],
      );
    });
    this.forget(tenantId, claims.sub!, claims.jti);
  }

  /** Records, inside the caller's transaction, that every token of an app is void. */
  async invalidateApp(tx: RawSql, tenantId: number, appId: string): Promise<void> {
    await tx.query('insert into auth_invalidations (tenant_id, app_id) values ($1, $2)', [
      tenantId,
      appId,
    ]);
  }

  /** Records, inside the caller's transaction, that every token of a tenant is void. */
  async invalidateTenant(tx: RawSql, tenantId: number): Promise<void> {
    await tx.query('insert into auth_invalidations (tenant_id, app_id) values ($1, null)', [
      tenantId,
    ]);
  }

  /** Drops cached tokens of an app or a member (or one token of it) on this instance. */
  forget(tenantId: number, appId: string, jti?: string | null): void {
    this.generation++;
    for (const token of [...(this.tokensByApp.get(appKey(tenantId, appId)) ?? [])]) {
      if (!jti || this.cache.peek(token)?.principal.jti === jti) this.cache.delete(token);
    }
  }

  /** Drops every cached token of a tenant on this instance (the tenant was deleted). */
  forgetTenant(tenantId: number): void {
    this.generation++;
    for (const key of [...(this.appsByTenant.get(tenantId) ?? [])]) {
      for (const token of [...(this.tokensByApp.get(key) ?? [])]) this.cache.delete(token);
    }
  }

  /** How many tokens this instance holds verified (for tests and metrics). */
  get cachedTokens(): number {
    return this.cache.size;
  }

  private index(token: string, principal: Principal): void {
    const key = appKey(principal.tenantId, principal.memberId ?? principal.appId);
    let tokens = this.tokensByApp.get(key);
    if (!tokens) {
      tokens = new Set();
      this.tokensByApp.set(key, tokens);
      let apps = this.appsByTenant.get(principal.tenantId);
      if (!apps) this.appsByTenant.set(principal.tenantId, (apps = new Set()));
      apps.add(key);
    }
    tokens.add(token);
  }

  private unindex(token: string, principal: Principal): void {
    const key = appKey(principal.tenantId, principal.memberId ?? principal.appId);
    const tokens = this.tokensByApp.get(key);
    if (!tokens) return;
    tokens.delete(token);
    if (tokens.size > 0) return;
    this.tokensByApp.delete(key);
    const apps = this.appsByTenant.get(principal.tenantId);
    apps?.delete(key);
    if (apps?.size === 0) this.appsByTenant.delete(principal.tenantId);
  }

  /** Applies what other instances invalidated since the last poll. */
  async poll(): Promise<void> {
    this.polls++;
    const events = await this.db.query<{
      tenantId: number;
      seq: string;
      appId: string | null;
      jti: string | null;
    }>(
      `select tenant_id as "tenantId", seq::text as seq, app_id as "appId", jti
         from auth_invalidations where seq > $1 order by seq limit 1000`,
      [this.lastSeq],
    );
    for (const event of events) {
      if (event.appId === null) {
        this.forgetTenant(event.tenantId);
        this.needs.forgetTenant(event.tenantId);
      } else this.forget(event.tenantId, event.appId, event.jti);
      this.lastSeq = Number(event.seq);
    }
    if (this.polls % KEY_RELOAD_EVERY_POLLS === 0) await this.keys.load();
  }

  private async reloadKeysSoon(): Promise<void> {
    if (Date.now() - this.lastKeyReload < KEY_RELOAD_MIN_INTERVAL_MS) return;
    this.lastKeyReload = Date.now();
    await this.keys.load();
  }
}
