// What the members module needs of the authorization server (the oauth module), passed in by
// module-wiring.ts. Members keep their sessions and their sign-in; the authorization server signs,
// verifies and revokes tokens and serves /oauth/token and /oauth/revoke, into which this module
// plugs the console (a public client) with its grants. The dependency goes one way: members
// use oauth, oauth knows nothing of members.
import type { CryptoKey } from 'jose';
import type { RawSql } from '../../db/connection/database.ts';
import type { MemberGrant } from './member-service.ts';

/** A member's access token, as the authorization server issued it. */
export interface IssuedMemberToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
  jti: string;
  expiresAt: Date;
}

/** The server's token signing keys (the sign-in form signs its CSRF token and tickets). */
export interface FormSigningKeys {
  readonly algorithm: string;
  signingKey(): { kid: string; key: CryptoKey };
  verificationKey(kid: string | undefined): CryptoKey | undefined;
}

export interface MemberTokens {
  issue(
    tenant: { id: number; baseUrl: string },
    clientId: string,
    member: MemberGrant,
  ): Promise<IssuedMemberToken>;
  /** Records, inside the caller's transaction, that these access tokens (if not expired yet)
   * are revoked: a session ended. */
  revoke(
    sql: RawSql,
    tenantId: number,
    issued: readonly { jti: string; subjectId: string; expiresAt: Date }[],
  ): Promise<void>;
  /** Records, inside the caller's transaction, that every token of the member is void. */
  invalidate(sql: RawSql, tenantId: number, memberId: string): Promise<void>;
  /** After the commit: drops this instance's cached tokens of the member. */
  forget(tenantId: number, memberId: string): void;
  signingKeys: FormSigningKeys;
  /** How a member's token finds its member when it is verified. */
  resolveMembersWith(
    lookup: (tenantId: number, memberId: string) => Promise<{ version: number } | undefined>,
  ): void;
}

/** Tokens a grant of the console issued (the refresh token rotates on every use). */
export interface SessionTokens {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  scope: string;
}

/** What a grant came to: tokens, or why it was refused (answered as invalid_grant). */
export type GrantOutcome = { tokens: SessionTokens } | { refused: string };

export type GrantField = 'code' | 'redirect_uri' | 'code_verifier' | 'refresh_token';

export interface PublicClientGrant {
  /** Form fields the token endpoint checks are present, in this order, before the exchange. */
  requires: readonly GrantField[];
  exchange(
    tenant: { id: number; baseUrl: string },
    clientId: string,
    fields: Partial<Record<GrantField, string>>,
  ): Promise<GrantOutcome>;
}

/** A public client served by this module at the token and revocation endpoints. */
export interface PublicClient {
  clientId: string;
  grants: Record<string, PublicClientGrant>;
  /** Sign-out of a refresh token or (with its jti) an access token; false: none of ours. */
  endSession(tenantId: number, token: { token: string; accessJti?: string }): Promise<boolean>;
}

export interface AuthorizationServer {
  tokens: MemberTokens;
  publicClients: { register(client: PublicClient): void };
}
