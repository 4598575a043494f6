// The OAuth module's settings, from the environment (src/config.ts composes every module's).
import { integer, type Env } from '../../config/env-readers.ts';

export interface OAuthSettings {
  tokenTtlSeconds: number;
}

export function oauthSettings(env: Env): OAuthSettings {
  return { tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 60, 86_400) };
}
