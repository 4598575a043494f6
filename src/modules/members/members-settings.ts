// The members module's settings, from the environment (src/config.ts composes every module's).
import { integer, type Env } from '../../config/env-readers.ts';

export interface MembersSettings {
  /** How long a member's refresh token (browser sign-in) stays usable; each use makes a new one. */
  refreshTokenTtlSeconds: number;
}

export function membersSettings(env: Env): MembersSettings {
  return {
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 86_400, 300, 2_592_000),
  };
}
