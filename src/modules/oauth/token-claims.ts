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
