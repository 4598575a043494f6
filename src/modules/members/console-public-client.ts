// The console as the authorization server sees it: a public client whose grants and sign-out
// are members' sessions. The members module registers it with the oauth module's token
// endpoint (members-module.ts).
import type { PublicClient } from './authorization-server.ts';
import { authorizationCodeGrant } from './authorization-code-grant.ts';
import { CONSOLE_CLIENT_ID } from './console-client.ts';
import type { MemberSessions } from './member-sessions.ts';
import { refreshTokenGrant } from './refresh-token-grant.ts';

export function consolePublicClient(sessions: MemberSessions): PublicClient {
  return {
    clientId: CONSOLE_CLIENT_ID,
    grants: {
      authorization_code: authorizationCodeGrant(sessions),
      refresh_token: refreshTokenGrant(sessions),
    },
    endSession: (tenantId, { token, accessJti }) =>
      sessions.revoke(tenantId, {
        token,
        clientId: CONSOLE_CLIENT_ID,
        ...(accessJti !== undefined ? { accessJti } : {}),
      }),
  };
}
