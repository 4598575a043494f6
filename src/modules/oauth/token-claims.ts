// What the oauth module's tokens carry and what issuing one answers (contract §3).
import type { JWTPayload } from 'jose';

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
  /** The client the token was issued to (RFC 9068 §2.2): an app's own id (= `sub`; tokens issued
   * before the claim was added carry none), or for a member's token the public client it signed
   * in through (`console`), with `sub` the member's id and `ver` the member's security version. */
  client_id?: string;
  /** A member's token: its roles, and the permissions they grant (route-permissions.ts). */
  roles?: string[];
  perm?: string[];
  preferred_username?: string;
}

/**
 * Whether a token stands for a member signed in through a public client rather than for an app.
 * An app's token names the app both as subject and as client (or, issued before `client_id` was
 * added, names no client): only a member's names a client other than its subject.
 */
export function isMemberToken(claims: TokenClaims): boolean {
  return claims.client_id !== undefined && claims.client_id !== claims.sub;
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
