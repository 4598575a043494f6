// The integration module's settings, from the environment (src/config.ts composes every module's).
import { ConfigError } from '../../config/config-error.ts';
import { hostName, integer, read, type Env } from '../../config/env-readers.ts';

export interface IntegrationSettings {
  integrationHost: string;
  provisioningDelaySeconds: number;
  /** How long a provisioning job may run before it is taken to be dead and retried. */
  provisioningTimeoutSeconds: number;
  /** Gateway requests per second by service tier: Developer, Standard, Premium. */
  gatewayRateLimits: [number, number, number];
}

function rateLimits(
  env: Env,
  name: string,
  fallback: [number, number, number],
): [number, number, number] {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1)) {
    throw new ConfigError(
      name,
      'must be three positive integers: Developer,Standard,Premium requests per second',
      raw,
    );
  }
  return parts.map(Number) as [number, number, number];
}

/** `server.apiHost`: the integration host is `integration.<API_HOST>` unless INTEGRATION_HOST says. */
export function integrationSettings(env: Env, server: { apiHost: string }): IntegrationSettings {
  const provisioningDelaySeconds = integer(env, 'PROVISIONING_DELAY_SECONDS', 0, 0, 86_400);
  return {
    integrationHost: hostName(env, 'INTEGRATION_HOST', `integration.${server.apiHost}`),
    provisioningDelaySeconds,
    // Must outlast the delay: a job still waiting it out is alive, not dead.
    provisioningTimeoutSeconds: integer(
      env,
      'PROVISIONING_TIMEOUT_SECONDS',
      provisioningDelaySeconds + 60,
      provisioningDelaySeconds + 1,
      172_800,
    ),
    gatewayRateLimits: rateLimits(env, 'GATEWAY_RATE_LIMITS', [10, 100, 1000]),
  };
}
