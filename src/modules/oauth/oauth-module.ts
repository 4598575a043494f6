// The oauth module's public face: its services and its routes.
import type { FastifyPluginAsync } from 'fastify';
import type { Database, RawSql } from '../../db/database.ts';
import { AppService } from './app-service.ts';
import { appRoutes } from './app-routes.ts';
import { ClientAuthentication } from './client-authentication.ts';
import { TokenService } from './token-service.ts';
import { tokenRoutes } from './token-routes.ts';

export interface OAuthModule {
  tokens: TokenService;
  apps: AppService;
  clients: ClientAuthentication;
  routes: FastifyPluginAsync;
}

export function createOAuthModule(db: Database, raw: RawSql, tokenTtlSeconds: number): OAuthModule {
  const tokens = new TokenService(db, tokenTtlSeconds);
  const apps = new AppService(db, raw, tokens);
  const clients = new ClientAuthentication(db);
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(tokenRoutes, { tokens, clients });
    await app.register(appRoutes, { apps });
  };
  return { tokens, apps, clients, routes };
}
