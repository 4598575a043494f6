// The oauth module: apps (OAuth clients), the token endpoint, token verification for every
// protected route, and the pruning of what token checks leave behind.
import type { AppModule, ModuleContext } from '../../module.ts';
import { AppService } from './app-service.ts';
import { appRoutes } from './app-routes.ts';
import { ClientAuthentication } from './client-authentication.ts';
import { OAUTH_PRUNE_QUEUE, pruneOAuthRecords } from './oauth-pruning.ts';
import { TokenService, type TokenNeeds } from './token-service.ts';
import { tokenRoutes } from './token-routes.ts';

export interface OAuthServices {
  tokens: TokenService;
  apps: AppService;
  clients: ClientAuthentication;
}

export type OAuthNeeds = TokenNeeds;

export function createOAuthModule(
  context: ModuleContext,
  needs: OAuthNeeds,
): AppModule<OAuthServices> {
  const { database, config } = context;
  const tokens = new TokenService(database.db, config.tokenTtlSeconds, needs, context.log);
  const apps = new AppService(database.db, database, tokens);
  const clients = new ClientAuthentication(database);
  return {
    name: 'oauth',
    services: { tokens, apps, clients },
    routes: async (app) => {
      await app.register(tokenRoutes, { tokens, clients });
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
