// grant_type=refresh_token (RFC 6749 §6): the console trades a session's refresh token for the
// next access and refresh tokens (rotation, with reuse detection in member-sessions.ts).
import type { PublicClientGrant } from './authorization-server.ts';
import type { MemberSessions } from './member-sessions.ts';

export function refreshTokenGrant(sessions: MemberSessions): PublicClientGrant {
  return {
    requires: ['refresh_token'],
    exchange: (tenant, clientId, fields) =>
      sessions.refresh(tenant, { clientId, refreshToken: fields.refresh_token! }),
  };
}
