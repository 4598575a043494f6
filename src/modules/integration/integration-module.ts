// The integration module's public face: the endpoint service, its provisioning job, the gateway
// host resolver and the routes (management API and portal).
import { endpointHistoryRoutes } from './endpoint-history-routes.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import { endpointRoutes, endpointTag } from './endpoint-routes.ts';
import { EndpointService, PROVISION_QUEUE } from './endpoint-service.ts';
import { gatewayHostResolver } from './gateway.ts';
import { portalRoutes } from './portal-routes.ts';
import {
  EndpointProvisioning,
  localGatewayProvisioner,
  type GatewayProvisioner,
  type Notify,
  type ProvisionJob,
} from './provisioning.ts';
import { MemoryRateLimiter, PostgresRateLimiter } from './rate-limiter.ts';
import { integrationErrorCodes } from './integration-errors.ts';

/** Its commands of the CLI (src/main.ts). */
export { integrationCommands } from './integration-commands.ts';

export type { GatewayProvisioner } from './provisioning.ts';

export interface IntegrationServices {
  endpoints: EndpointService;
  provisioning: EndpointProvisioning;
}

/** What the integration module needs of other modules (passed in by module-wiring.ts). */
export interface IntegrationNeeds {
  /** Records an e-mail to the endpoint's admin inside the caller's transaction. */
  notify: Notify;
}

export interface IntegrationOptions {
  /** Stands in for the gateway provisioner (tests). */
  provisioner?: GatewayProvisioner;
}

export function createIntegrationModule(
  context: ModuleContext,
  needs: IntegrationNeeds,
  options: IntegrationOptions = {},
): AppModule<IntegrationServices> {
  const { config, database, jobs } = context;
  const integrationHost = config.integrationHost;
  const portalUrlOf = (serviceName: string) =>
    context.urls.of(`${serviceName.toLowerCase()}.portal.${integrationHost}`);
  const gatewayUrlOf = (serviceName: string) =>
    context.urls.of(`${serviceName.toLowerCase()}.${integrationHost}`);
  // A job that runs longer than this is taken to be dead (its process crashed) and is retried.
  const provisioningTimeoutSeconds = config.provisioningTimeoutSeconds;

  const endpoints = new EndpointService(database, jobs, {
    portalUrlOf,
    provisioningTimeoutSeconds,
  });
  const provisioning = new EndpointProvisioning(
    database,
    needs.notify,
    options.provisioner ?? localGatewayProvisioner,
    {
      delaySeconds: config.provisioningDelaySeconds,
      integrationHost,
      portalUrlOf,
      log: context.log,
    },
  );
  const limiter =
    database.engine === 'postgres' ? new PostgresRateLimiter(database) : new MemoryRateLimiter();
  const gateway = gatewayHostResolver(endpoints, limiter, {
    integrationHost,
    limits: config.gatewayRateLimits,
  });

  return {
    name: 'integration',
    errorCodes: integrationErrorCodes,
    permissions: { area: 'integration' },
    openApiTags: [endpointTag],
    services: { endpoints, provisioning },
    hostResolvers: [gateway],
    queues: [
      {
        name: PROVISION_QUEUE,
        handler: (data: ProvisionJob, job) => provisioning.run(data, job),
        poisoned: (data: ProvisionJob, reason) => provisioning.giveUp(data, reason),
        retryLimit: 3,
        retryDelaySeconds: 2,
        expireInSeconds: provisioningTimeoutSeconds,
        // Each job mostly waits (the provisioning time); several run side by side per instance.
        concurrency: 5,
      },
    ],
    routes: async (app) => {
      await app.register(endpointRoutes, { endpoints });
      await app.register(endpointHistoryRoutes, { endpoints, database });
      await app.register(portalRoutes, {
        endpoints,
        integrationHost,
        gatewayUrlOf,
        tokenUrlOf: (tenantName) => `${context.urls.tenantBaseUrl(tenantName)}/oauth/token`,
        limits: config.gatewayRateLimits,
      });
    },
  };
}
