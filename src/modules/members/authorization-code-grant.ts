// grant_type=authorization_code (RFC 6749 §4.1.3, PKCE per RFC 7636): the console exchanges the
// code of a member's sign-in for the session's first access and refresh tokens.
import type { PublicClientGrant } from './authorization-server.ts';
import type { MemberSessions } from './member-sessions.ts';

export function authorizationCodeGrant(sessions: MemberSessions): PublicClientGrant {
  return {
    requires: ['code', 'redirect_uri', 'code_verifier'],
    exchange: (tenant, clientId, fields) =>
      sessions.exchangeCode(tenant, {
        clientId,
        code: fields.code!,
        redirectUri: fields.redirect_uri!,
        codeVerifier: fields.code_verifier!,
      }),
  };
}
