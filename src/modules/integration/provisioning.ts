// The provisioning job of an integration endpoint, a small workflow: wait out the provisioning
// time, have the gateway provisioner set the service up, then issue the subscription key and
// go live (Status 2), or record why it failed (Status 3). Each step is guarded by the
// endpoint's generation, so a deleted or replaced endpoint is never brought back, and a job
// that is retried after a crash resumes where the clock says it is.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { SERVICE_TIERS } from './endpoint-schemas.ts';
import { endpointColumns, newSubscriptionKey, type EndpointRow } from './endpoint-service.ts';

/** What the gateway needs to serve a new endpoint (the dependency that can fail). */
export interface GatewayProvisioner {
  provision(endpoint: {
    tenantId: number;
    serviceName: string;
    serviceTier: number;
    gatewayHost: string;
    portalHost: string;
  }): Promise<void>;
}

/** Records an e-mail inside the caller's transaction (the notifications module's outbox). */
export type Notify = (
  sql: RawSql,
  notification: { tenantId: number; recipient: string; subject: string; body: string },
) => Promise<unknown>;

/** A failure that retrying will not mend: the endpoint fails (Status 3) at once. */
export class ProvisioningError extends Error {}

const MAX_HOST_LENGTH = 253;

/** Checks that the endpoint's gateway and portal hosts can exist; the routes are the endpoint rows. */
export const localGatewayProvisioner: GatewayProvisioner = {
  async provision({ gatewayHost, portalHost }) {
    for (const host of [gatewayHost, portalHost]) {
      if (host.length > MAX_HOST_LENGTH)
        throw new ProvisioningError(`The host name ${host} is longer than DNS allows.`);
    }
  },
};

export interface ProvisioningOptions {
  delaySeconds: number;
  integrationHost: string;
  portalUrlOf: (serviceName: string) => string;
  log: () => FastifyBaseLogger | undefined;
}

export interface ProvisionJob {
  tenantId: number;
  generation: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class EndpointProvisioning {
  private readonly db: DatabaseHandle;
  private readonly notify: Notify;
  private readonly provisioner: GatewayProvisioner;
  private readonly options: ProvisioningOptions;

  constructor(
    db: DatabaseHandle,
    notify: Notify,
    provisioner: GatewayProvisioner,
    options: ProvisioningOptions,
  ) {
    this.db = db;
    this.notify = notify;
    this.provisioner = provisioner;
    this.options = options;
  }

  private async pending(job: ProvisionJob): Promise<EndpointRow | undefined> {
    const [row] = await this.db.query<EndpointRow>(
      `select ${endpointColumns('e')} from integration_endpoints e where e.tenant_id = $1 and e.generation = $2 and e.status = 1`,
      [job.tenantId, job.generation],
    );
    return row;
  }

  async run(job: ProvisionJob, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
    let endpoint = await this.pending(job);
    if (!endpoint) return;
    // The provisioning time counts from creation, so a job resumed after a crash waits only
    // what is left; a deleted endpoint ends the wait early.
    const readyAt = endpoint.createdAt.getTime() + this.options.delaySeconds * 1000;
    while (Date.now() < readyAt) {
      await sleep(Math.min(1000, readyAt - Date.now()));
      endpoint = await this.pending(job);
      if (!endpoint) return;
    }
    try {
      await this.provisioner.provision({
        tenantId: endpoint.tenantId,
        serviceName: endpoint.serviceName,
        serviceTier: endpoint.serviceTier,
        gatewayHost: `${endpoint.serviceName.toLowerCase()}.${this.options.integrationHost}`,
        portalHost: `${endpoint.serviceName.toLowerCase()}.portal.${this.options.integrationHost}`,
      });
    } catch (error) {
      const permanent =
        error instanceof ProvisioningError || attempt.retryCount >= attempt.retryLimit;
      if (!permanent) throw error;
      await this.fail(endpoint, job, error instanceof Error ? error.message : String(error));
      return;
    }
    await this.succeed(endpoint, job);
  }

  /** The job was given up (its runs kept ending their process): the endpoint fails with why. */
  async giveUp(job: ProvisionJob, reason: string): Promise<void> {
    const endpoint = await this.pending(job);
    if (endpoint) await this.fail(endpoint, job, reason);
  }

  private async succeed(endpoint: EndpointRow, job: ProvisionJob): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      const done = await sql.query(
        `update integration_endpoints set status = 2, subscription_key = $3, failure_reason = null, updated_at = now()
          where tenant_id = $1 and generation = $2 and status = 1 returning tenant_id`,
        [job.tenantId, job.generation, newSubscriptionKey()],
      );
      if (done.length === 0) return;
      await this.notify(sql, {
        tenantId: endpoint.tenantId,
        recipient: endpoint.adminMail,
        subject: `Integration endpoint ${endpoint.serviceName} is ready`,
        body:
          `Your integration endpoint ${endpoint.serviceName} (${SERVICE_TIERS[endpoint.serviceTier]} tier) is ready.\n\n` +
          `Gateway: ${endpoint.serviceName.toLowerCase()}.${this.options.integrationHost}\n` +
          `Portal: ${this.options.portalUrlOf(endpoint.serviceName)}\n\n` +
          'Fetch the subscription key with GET /management/integration/endpoint/subscriptionkey.',
      });
    });
    this.options
      .log()
      ?.info(
        { tenantId: endpoint.tenantId, service: endpoint.serviceName },
        'integration endpoint provisioned',
      );
  }

  private async fail(endpoint: EndpointRow, job: ProvisionJob, reason: string): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      const done = await sql.query(
        `update integration_endpoints set status = 3, failure_reason = $3, updated_at = now()
          where tenant_id = $1 and generation = $2 and status = 1 returning tenant_id`,
        [job.tenantId, job.generation, reason.slice(0, 2000)],
      );
      if (done.length === 0) return;
      // A failed endpoint frees its name.
      await sql.query('delete from integration_service_names where owner_tenant_id = $1', [
        job.tenantId,
      ]);
      await this.notify(sql, {
        tenantId: endpoint.tenantId,
        recipient: endpoint.adminMail,
        subject: `Integration endpoint ${endpoint.serviceName} could not be created`,
        body: `Creating your integration endpoint ${endpoint.serviceName} failed: ${reason}\n\nCreate a new one to try again.`,
      });
    });
    this.options
      .log()
      ?.error(
        { tenantId: endpoint.tenantId, service: endpoint.serviceName, reason },
        'integration endpoint provisioning failed',
      );
  }
}
