// Creates every module and wires what one needs of another (docs/design.md, "Adding a module"):
// the services that the server (app.ts), the CLI (main.ts) and the tests use.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { commitMarkerPruneQueue } from './db/failover/commit-marker-pruning.ts';
import { idempotencyPruneQueue } from './http/idempotency-pruning.ts';
import type { DatabaseHandle } from './db/connection/database.ts';
import { IdempotencyStore } from './http/idempotency-store.ts';
import { publicUrls } from './http/public-urls.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { AppModule, ModuleContext } from './module.ts';
import {
  createAnalyticsModule,
  type AnalyticsServices,
} from './modules/analytics/analytics-module.ts';
import { createCatalogModule, type CatalogServices } from './modules/catalog/catalog-module.ts';
import { createCompanyModule, type CompanyServices } from './modules/company/company-module.ts';
import { createConsoleModule } from './modules/console/console-module.ts';
import {
  createEventsModule,
  type EventsOptions,
  type EventsServices,
} from './modules/events/events-module.ts';
import { createHistoryModule, type HistoryServices } from './modules/history/history-module.ts';
import {
  createIntegrationModule,
  type GatewayProvisioner,
  type IntegrationServices,
} from './modules/integration/integration-module.ts';
import {
  createNotificationsModule,
  type MailTransport,
  type Outbox,
} from './modules/notifications/notifications-module.ts';
import { createMembersModule, type MembersServices } from './modules/members/members-module.ts';
import { createOAuthModule, type OAuthServices } from './modules/oauth/oauth-module.ts';
import { createSampleModule, type SampleServices } from './modules/sample/sample-module.ts';
import { createStorageModule, type StorageServices } from './modules/storage/storage-module.ts';
import { sampleNeedsOf } from './sample-wiring.ts';
import { createTenantsModule, type TenantService } from './modules/tenants/tenants-module.ts';

export interface Services {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue;
  /** Every module, in the order the server registers them. */
  modules: AppModule[];
  tenants: TenantService;
  oauth: OAuthServices;
  members: MembersServices;
  outbox: Outbox;
  catalog: CatalogServices;
  integration: IntegrationServices;
  storage: StorageServices;
  company: CompanyServices;
  analytics: AnalyticsServices;
  /** The sample catalog, seeded on the first start and by `omni sample seed`. */
  sample: SampleServices;
  /** Idempotency-Key claims and stored answers (every POST and PATCH; src/http/idempotency.ts). */
  idempotency: IdempotencyStore;
  events: EventsServices;
  /** The change history's tenant-wide list (each module answers its resources' histories). */
  history: HistoryServices;
  /** The server's logger once it is built (jobs log through it). */
  logger: { current?: FastifyBaseLogger };
}

/**
 * How long a running request holds its Idempotency-Key. Past it, the key's request is taken for
 * dead (its server crashed) and a retry runs it again; no request of this API runs that long.
 */
const IDEMPOTENCY_LEASE_SECONDS = 120;

/** Replaceable outside dependencies (tests stand in their own). */
export interface ServiceOverrides {
  provisioner?: GatewayProvisioner;
  mailTransport?: MailTransport;
  /** Webhooks' clock, retry schedule and DNS resolver. */
  events?: EventsOptions;
  /** Where the console's build is (console/dist by default). */
  consoleDistDir?: string;
  /** Awaited before each chunk of a catalog import commits (a test holds an import there). */
  catalogImportBeforeChunk?: () => Promise<void>;
}

/**
 * Creates every module and wires what one needs of another. Adding a module is one line in the
 * list at the end (and its creation above it).
 *
 * The modules are created in dependency order: each receives only named interfaces of modules
 * created before it, so the modules form a graph without cycles (company, then oauth, then
 * members, then tenants, which provisions a tenant's bootstrap app and owner).
 */
export function createServices(
  config: Config,
  database: DatabaseHandle,
  overrides: ServiceOverrides = {},
): Services {
  const logger: Services['logger'] = {};
  const jobs = new JobQueue(database, {
    pollingIntervalSeconds: config.jobPollingIntervalSeconds,
    maintenanceIntervalSeconds: config.jobMaintenanceIntervalSeconds,
    crashLimit: config.jobCrashLimit,
    heartbeatSeconds: config.jobHeartbeatSeconds,
    migrate: config.migrateOnStart,
  });
  const context: ModuleContext = {
    config,
    database,
    jobs,
    log: () => logger.current,
    urls: publicUrls(config),
  };

  const notifications = createNotificationsModule(context, {
    ...(overrides.mailTransport ? { mailTransport: overrides.mailTransport } : {}),
  });
  const company = createCompanyModule(context);
  const oauth = createOAuthModule(context, {
    physicalDevice: (tenantId, deviceId) =>
      company.services.physicalDevices.find(tenantId, deviceId),
  });
  const { tokens, apps, publicClients } = oauth.services;
  const members = createMembersModule(context, {
    tokens: {
      issue: (tenant, clientId, member) => tokens.issueMember(tenant, clientId, member),
      revoke: (sql, tenantId, issued) => tokens.revokeIssued(sql, tenantId, issued),
      invalidate: (sql, tenantId, memberId) => tokens.invalidateApp(sql, tenantId, memberId),
      forget: (tenantId, memberId) => tokens.forget(tenantId, memberId),
      signingKeys: tokens.keys,
      resolveMembersWith: (lookup) => tokens.resolveMembersWith(lookup),
    },
    publicClients,
    notify: (sql, mail) => notifications.services.outbox.enqueue(sql, mail),
    mailSends: () => notifications.services.outbox.sends,
  });
  const tenants = createTenantsModule(context, {
    createBootstrapApp: (tx, tenantId) => apps.createBootstrap(tx, tenantId),
    createOwner: async (tx, tenantId) => {
      const { member, password } = await members.services.members.createOwner(tx, tenantId);
      return { Username: member.Username, Password: password };
    },
    invalidateTenantTokens: (tx, tenantId) => tokens.invalidateTenant(tx, tenantId),
    // analytics is made below; this runs only when a tenant is deleted, long after.
    deleteTenantData: (tx, tenantId) => analytics.services.analytics.forgetTenant(tx, tenantId),
    forgetTenantTokens: (tenantId) => tokens.forgetTenant(tenantId),
    onDeletedElsewhere: (listener) => tokens.onTenantInvalidated(listener),
  });
  const storage = createStorageModule(context);
  const catalog = createCatalogModule(
    context,
    {
      assets: {
        store: async (tenantId, baseUrl, file, body, maxBytes) => {
          const asset = await storage.services.assets.createFromStream(
            tenantId,
            baseUrl,
            file,
            body,
            maxBytes,
          );
          return { id: asset.Id, size: asset.Size, url: asset.AssetUrl };
        },
        open: async (tenantId, assetId) => {
          const blob = await storage.services.assets.blobOf(tenantId, assetId);
          if (!blob) return undefined;
          return {
            size: blob.size,
            mimeType: blob.mimeType,
            read: () => storage.services.store.read(blob.key, { start: 0, end: blob.size - 1 }),
          };
        },
        familyOf: (tenantId, assetId) => storage.services.assets.familyOf(tenantId, assetId),
        describe: (tenantId, assetIds, baseUrl) =>
          storage.services.assets.describe(tenantId, assetIds, baseUrl),
        find: (sql, tenantId, keys) => storage.services.assets.find(sql, tenantId, keys),
        onForcedDelete: (release) => storage.services.assets.onForcedDelete(release),
      },
    },
    overrides.catalogImportBeforeChunk
      ? { importBeforeChunk: overrides.catalogImportBeforeChunk }
      : {},
  );
  const integration = createIntegrationModule(
    context,
    { notify: (sql, notification) => notifications.services.outbox.enqueue(sql, notification) },
    { ...(overrides.provisioner ? { provisioner: overrides.provisioner } : {}) },
  );

  const analytics = createAnalyticsModule(context, {
    deviceStamp: (tenantId, deviceId) =>
      company.services.physicalDevices.stampOf(tenantId, deviceId),
  });

  const events = createEventsModule(
    context,
    {
      notify: (sql, notification) => notifications.services.outbox.enqueue(sql, notification),
      adminMail: async (tenantId) =>
        (await integration.services.endpoints.row(tenantId))?.adminMail,
    },
    overrides.events,
  );
  const history = createHistoryModule(context);
  const sample = createSampleModule(
    context,
    sampleNeedsOf({
      catalog: catalog.services,
      storage: storage.services,
      company: company.services,
      analytics: analytics.services,
    }),
  );
  const webConsole = createConsoleModule(
    context,
    overrides.consoleDistDir ? { distDir: overrides.consoleDistDir } : {},
  );

  const modules: AppModule[] = [
    tenants,
    oauth,
    members,
    notifications,
    catalog,
    integration,
    storage,
    company,
    analytics,
    events,
    history,
    sample,
    webConsole,
  ];
  return {
    config,
    database,
    jobs,
    modules,
    tenants: tenants.services.tenants,
    oauth: oauth.services,
    members: members.services,
    outbox: notifications.services.outbox,
    catalog: catalog.services,
    integration: integration.services,
    storage: storage.services,
    company: company.services,
    analytics: analytics.services,
    sample: sample.services,
    // Claims and stored answers commit without waiting for the disk (see asyncCommit).
    idempotency: new IdempotencyStore(database.asyncCommit, {
      ttlSeconds: config.idempotencyKeyTtlSeconds,
      leaseSeconds: IDEMPOTENCY_LEASE_SECONDS,
    }),
    events: events.services,
    history: history.services,
    logger,
  };
}

/**
 * Gives the job queue every queue there is: each module's, and the shared layers' bookkeeping
 * (stale Idempotency-Keys, and on a failover pair the commit markers). Once per services: before
 * the server starts the queue, and for `omni migrate`, which makes their tables.
 */
export function defineQueues(services: Services): void {
  for (const module of services.modules)
    for (const queue of module.queues ?? []) services.jobs.define(queue);
  services.jobs.define(idempotencyPruneQueue(services.idempotency, () => services.logger.current));
  const { pruneCommitMarkers } = services.database;
  if (pruneCommitMarkers)
    services.jobs.define(commitMarkerPruneQueue(pruneCommitMarkers, () => services.logger.current));
}
