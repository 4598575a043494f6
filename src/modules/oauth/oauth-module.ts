// The oauth module: apps (OAuth clients), the token endpoint, token verification for every
// protected route, the browser sign-in of members (authorization code with PKCE, refresh
// tokens, sign-out) and the pruning of what token checks leave behind.
import type { AppModule, ModuleContext } from '../../module.ts';
import { AppService } from './app-service.ts';
import { appRoutes } from './app-routes.ts';
import { ClientAuthentication } from './client-authentication.ts';
import { OAUTH_PRUNE_QUEUE, pruneOAuthRecords } from './oauth-pruning.ts';
import { TokenService, type TokenNeeds } from './token-service.ts';
import { DeviceBoundVerifier, type PhysicalDeviceLookup } from './device-tokens.ts';
import { tokenRoutes } from './token-routes.ts';
import { authorizeRoutes, type SignInNeeds } from './authorize-routes.ts';
import { MemberSessions } from './member-sessions.ts';
import { SignInFormTokens } from './sign-in-form-tokens.ts';
import type { RawSql } from '../../db/database.ts';
import type { TokenMember } from './token-service.ts';

export interface OAuthServices {
  tokens: TokenService;
  apps: AppService;
  clients: ClientAuthentication;
  /** What every protected route verifies tokens with (identity tokens: their device too). */
  verifier: DeviceBoundVerifier;
  /** Members' sessions: codes, refresh tokens, sign-out; and ending them (members module). */
  sessions: MemberSessions;
}

export interface OAuthNeeds extends TokenNeeds, SignInNeeds {
  /** The registered physical device an identity token is (to be) bound to (company module). */
  physicalDevice: PhysicalDeviceLookup;
  /** The member as it is now (members module); `sql`: the caller's open transaction. */
  member(tenantId: number, memberId: string, sql?: RawSql): Promise<TokenMember | undefined>;
}

export function createOAuthModule(
  context: ModuleContext,
  needs: OAuthNeeds,
): AppModule<OAuthServices> {
  const { database, config } = context;
  const tokens = new TokenService(database, config.tokenTtlSeconds, needs, context.log);
  const apps = new AppService(database, tokens);
  const clients = new ClientAuthentication(database);
  const verifier = new DeviceBoundVerifier(tokens, needs.physicalDevice);
  const sessions = new MemberSessions(database, tokens, needs, config.refreshTokenTtlSeconds);
  const formTokens = new SignInFormTokens(tokens.keys);
  return {
    name: 'oauth',
    permissions: { area: 'apps' },
    services: { tokens, apps, clients, verifier, sessions },
    routes: async (app) => {
      await app.register(tokenRoutes, {
        tokens,
        clients,
        physicalDevice: needs.physicalDevice,
        sessions,
      });
      await app.register(authorizeRoutes, {
        sessions,
        formTokens,
        needs,
        https: config.publicScheme === 'https',
      });
      await app.register(appRoutes, { apps });
    },
    queues: [
      {
        name: OAUTH_PRUNE_QUEUE,
        handler: async () => {
          const pruned = await pruneOAuthRecords(database, config.tokenTtlSeconds);
          context.log()?.info({ pruned }, 'oauth records pruned');
        },
        retryLimit: 2,
        retryDelaySeconds: 60,
        expireInSeconds: 300,
        concurrency: 1,
        cron: '*/10 * * * *',
      },
    ],
    start: () => tokens.start(),
    stop: async () => tokens.stop(),
  };
}
