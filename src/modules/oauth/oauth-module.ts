// The oauth module (the authorization server): apps (OAuth clients), the token endpoint, token
// verification for every protected route and the pruning of what token checks leave behind.
// Public clients (the console, whose sessions the members module keeps) plug their grants into
// the token endpoint through `publicClients`; this module depends on no other module's code.
import { appHistoryRoutes } from './app-history-routes.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import { AppService } from './app-service.ts';
import { appRoutes, appsTag } from './app-routes.ts';
import { ClientAuthentication } from './client-authentication.ts';
import { OAUTH_PRUNE_QUEUE, pruneOAuthRecords } from './oauth-pruning.ts';
import { TokenService } from './token-service.ts';
import { DeviceBoundVerifier, type PhysicalDeviceLookup } from './device-tokens.ts';
import { PublicClients } from './public-clients.ts';
import { tokenRoutes } from './token-routes.ts';
import { oauthTag } from './token-schemas.ts';
import { oauthErrorCodes } from './oauth-errors.ts';

/** Its commands of the CLI (src/main.ts). */
export { oauthCommands } from './oauth-commands.ts';

export interface OAuthServices {
  tokens: TokenService;
  apps: AppService;
  clients: ClientAuthentication;
  /** What every protected route verifies tokens with (identity tokens: their device too). */
  verifier: DeviceBoundVerifier;
  /** Where another module registers a public client's grants and sign-out (the console). */
  publicClients: PublicClients;
}

export interface OAuthNeeds {
  /** The registered physical device an identity token is (to be) bound to (company module). */
  physicalDevice: PhysicalDeviceLookup;
}

export function createOAuthModule(
  context: ModuleContext,
  needs: OAuthNeeds,
): AppModule<OAuthServices> {
  const { database, config } = context;
  const tokens = new TokenService(database, config.tokenTtlSeconds, context.log);
  const apps = new AppService(database, tokens);
  const clients = new ClientAuthentication(database);
  const verifier = new DeviceBoundVerifier(tokens, needs.physicalDevice);
  const publicClients = new PublicClients();
  return {
    name: 'oauth',
    errorCodes: oauthErrorCodes,
    permissions: { area: 'apps' },
    openApiTags: [oauthTag, appsTag],
    services: { tokens, apps, clients, verifier, publicClients },
    routes: async (app) => {
      await app.register(tokenRoutes, {
        tokens,
        clients,
        physicalDevice: needs.physicalDevice,
        publicClients,
        verifier,
      });
      await app.register(appRoutes, { apps });
      await app.register(appHistoryRoutes, { apps, database });
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
