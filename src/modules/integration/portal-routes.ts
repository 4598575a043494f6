// The portal at {ServiceName}.portal.{INTEGRATION_HOST}: GET / (the page) and GET /status (what
// the page polls). Public: it shows no secret, only whether the subscription key is active.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { EndpointService } from './endpoint-service.ts';
import { operationsOf, PORTAL_CSP, renderPortal } from './portal-page.ts';

export interface PortalOptions {
  endpoints: EndpointService;
  integrationHost: string;
  gatewayUrlOf: (serviceName: string) => string;
  tokenUrlOf: (tenantName: string) => string;
  limits: readonly [number, number, number];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PortalStatus = Type.Object({
  ServiceName: Type.String(),
  Status: Type.Integer(),
  ServiceTier: Type.Integer(),
  SubscriptionKeyActive: Type.Boolean(),
});

function notFoundPage(reply: FastifyReply) {
  return reply
    .code(404)
    .type('text/html; charset=utf-8')
    .send('<!doctype html><title>Not found</title><h1>No integration endpoint here</h1>');
}

export const portalRoutes: FastifyPluginAsync<PortalOptions> = async (app, options) => {
  const host = new RegExp(
    `^[a-z0-9-]+\\.portal\\.${escapeRegExp(options.integrationHost)}(:\\d+)?$`,
    'i',
  );
  const serviceNameOf = (hostname: string) => hostname.toLowerCase().split('.')[0] ?? '';
  const config = { access: 'operator' as const };

  app.get(
    '/',
    { constraints: { host }, config, schema: { hide: true } },
    async (request, reply) => {
      const endpoint = await options.endpoints.forPortal(serviceNameOf(request.hostname));
      if (!endpoint) return notFoundPage(reply);
      const html = renderPortal({
        serviceName: endpoint.serviceName,
        serviceTier: endpoint.serviceTier,
        status: endpoint.status,
        keyActive: endpoint.status === 2 && endpoint.subscriptionKey !== null,
        gatewayUrl: options.gatewayUrlOf(endpoint.serviceName),
        tokenUrl: options.tokenUrlOf(endpoint.tenantName),
        operations: operationsOf(app.swagger() as Parameters<typeof operationsOf>[0]),
        rateLimit: options.limits[endpoint.serviceTier] ?? options.limits[0],
      });
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('Content-Security-Policy', PORTAL_CSP)
        .send(html);
    },
  );

  app.get(
    '/status',
    { constraints: { host }, config, schema: { hide: true, response: { 200: PortalStatus } } },
    async (request, reply) => {
      const endpoint = await options.endpoints.forPortal(serviceNameOf(request.hostname));
      if (!endpoint) return notFoundPage(reply);
      reply.header('Cache-Control', 'no-store');
      return {
        ServiceName: endpoint.serviceName,
        Status: endpoint.status,
        ServiceTier: endpoint.serviceTier,
        SubscriptionKeyActive: endpoint.status === 2 && endpoint.subscriptionKey !== null,
      };
    },
  );
};
