// The integration module's public face: the endpoint service, its provisioning job, the gateway
// host resolver and the routes (management API and portal).
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { HostResolver } from '../../http/tenant-host.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Outbox } from '../notifications/outbox.ts';
import { endpointRoutes } from './endpoint-routes.ts';
import { EndpointService, PROVISION_QUEUE } from './endpoint-service.ts';
import { gatewayHostResolver } from './gateway.ts';
import { portalRoutes } from './portal-routes.ts';
import {
  EndpointProvisioning,
  localGatewayProvisioner,
  type GatewayProvisioner,
  type ProvisionJob,
} from './provisioning.ts';
import { MemoryRateLimiter, PostgresRateLimiter } from './rate-limiter.ts';

export interface IntegrationModule {
  endpoints: EndpointService;
  provisioning: EndpointProvisioning;
  gateway: HostResolver;
  routes: FastifyPluginAsync;
}

export interface IntegrationDependencies {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue;
  outbox: Outbox;
  urlOf: (host: string) => string;
  tenantBaseUrlOf: (tenantName: string) => string;
  log: () => FastifyBaseLogger | undefined;
  provisioner?: GatewayProvisioner;
}

export function createIntegrationModule(deps: IntegrationDependencies): IntegrationModule {
  const { config, database, jobs } = deps;
  const integrationHost = config.integrationHost;
  const portalUrlOf = (serviceName: string) =>
    deps.urlOf(`${serviceName.toLowerCase()}.portal.${integrationHost}`);
  const gatewayUrlOf = (serviceName: string) =>
    deps.urlOf(`${serviceName.toLowerCase()}.${integrationHost}`);
  // A job that runs longer than this is taken to be dead (its process crashed) and is retried.
  const provisioningTimeoutSeconds = config.provisioningTimeoutSeconds;

  const endpoints = new EndpointService(database, jobs, {
    portalUrlOf,
    provisioningTimeoutSeconds,
  });
  const provisioning = new EndpointProvisioning(
    database,
    deps.outbox,
    deps.provisioner ?? localGatewayProvisioner,
    {
      delaySeconds: config.provisioningDelaySeconds,
      integrationHost,
      portalUrlOf,
      log: deps.log,
    },
  );
  jobs.define<ProvisionJob>({
    name: PROVISION_QUEUE,
    handler: (data, job) => provisioning.run(data, job),
    retryLimit: 3,
    retryDelaySeconds: 2,
    expireInSeconds: provisioningTimeoutSeconds,
    // Each job mostly waits (the provisioning time); several run side by side per instance.
    concurrency: 5,
  });
  const limiter =
    database.engine === 'postgres' ? new PostgresRateLimiter(database) : new MemoryRateLimiter();
  const gateway = gatewayHostResolver(endpoints, limiter, {
    integrationHost,
    limits: config.gatewayRateLimits,
  });

  return {
    endpoints,
    provisioning,
    gateway,
    routes: async (app) => {
      await app.register(endpointRoutes, { endpoints });
      await app.register(portalRoutes, {
        endpoints,
        integrationHost,
        gatewayUrlOf,
        tokenUrlOf: (tenantName) => `${deps.tenantBaseUrlOf(tenantName)}/oauth/token`,
        limits: config.gatewayRateLimits,
      });
    },
  };
}
