// The integration gateway: {ServiceName}.{INTEGRATION_HOST} forwards into the tenant's API for
// callers with the endpoint's X-Subscription-Key, under the tier's rate limit. The caller still
// needs a bearer token of the tenant, checked as on the tenant's own host.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { integrationErrors } from './integration-errors.ts';
import type { HostResolver, Tenant } from '../../http/tenant-host.ts';
import type { EndpointService } from './endpoint-service.ts';
import type { RateLimiter } from './rate-limiter.ts';

export interface GatewayOptions {
  integrationHost: string;
  /** Requests per second by tier: Developer, Standard, Premium. */
  limits: readonly [number, number, number];
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function gatewayHostResolver(
  endpoints: EndpointService,
  limiter: RateLimiter,
  options: GatewayOptions,
): HostResolver {
  const suffix = `.${options.integrationHost}`;
  const handles = (hostname: string) => hostname.toLowerCase().endsWith(suffix);
  const resolve = async (request: FastifyRequest, reply: FastifyReply): Promise<Tenant> => {
    const host = request.hostname.toLowerCase();
    const serviceName = host.slice(0, -suffix.length);
    const endpoint = serviceName.includes('.')
      ? undefined
      : await endpoints.byServiceName(serviceName);
    if (!endpoint || endpoint.status !== 2 || !endpoint.subscriptionKey) {
      throw integrationErrors.noLiveEndpoint(host);
    }
    const key = request.headers['x-subscription-key'];
    if (typeof key !== 'string' || !sameKey(key, endpoint.subscriptionKey)) {
      throw integrationErrors.invalidSubscriptionKey();
    }
    const decision = await limiter.hit(
      endpoint.serviceName.toLowerCase(),
      options.limits[endpoint.serviceTier] ?? options.limits[0],
    );
    reply.header('RateLimit-Limit', String(decision.limit));
    reply.header('RateLimit-Remaining', String(decision.remaining));
    reply.header('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw integrationErrors.rateLimited(decision.limit, decision.resetSeconds);
    }
    return {
      id: endpoint.tenantId,
      name: endpoint.tenantName,
      createdAt: endpoint.tenantCreatedAt,
    };
  };
  return { handles, resolve };
}
