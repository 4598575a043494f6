// The tenant's integration endpoint (contract §5.2): one per tenant, created by a durable
// provisioning job, deleted (and its creation cancelled) on request.
import { randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { integrationErrors } from './integration-errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { constraintViolationOf } from '../../db/queries/constraint-violation.ts';
import {
  EndpointStatus,
  SERVICE_NAME_PATTERN,
  type CreateEndpointBody,
  type Endpoint,
} from './endpoint-schemas.ts';

export const PROVISION_QUEUE = 'integration.provision';

// Practical address check (the one HTML forms use): something@domain.tld, no spaces, ≤ 254.
const MAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export interface EndpointRow {
  tenantId: number;
  serviceName: string;
  serviceTier: number;
  adminMail: string;
  status: number;
  failureReason: string | null;
  subscriptionKey: string | null;
  generation: string;
  jobId: string | null;
  createdAt: Date;
  /** Moves on every change (status, key): the ETag. */
  updatedAt: Date;
}

export const endpointColumns = (
  e: string,
) => `${e}.tenant_id as "tenantId", ${e}.service_name as "serviceName",
  ${e}.service_tier as "serviceTier", ${e}.admin_mail as "adminMail", ${e}.status, ${e}.failure_reason as "failureReason",
  ${e}.subscription_key as "subscriptionKey", ${e}.generation::text as generation, ${e}.job_id as "jobId",
  ${e}.created_at as "createdAt", ${e}.updated_at as "updatedAt"`;

export const newSubscriptionKey = () => randomBytes(24).toString('base64url');

export interface EndpointServiceOptions {
  portalUrlOf: (serviceName: string) => string;
  /** How long a provisioning job may run before pg-boss retries it elsewhere. */
  provisioningTimeoutSeconds: number;
}

export class EndpointService {
  private readonly db: DatabaseHandle;
  private readonly jobs: JobQueue;
  private readonly options: EndpointServiceOptions;

  constructor(db: DatabaseHandle, jobs: JobQueue, options: EndpointServiceOptions) {
    this.db = db;
    this.jobs = jobs;
    this.options = options;
  }

  private toEndpoint(row: EndpointRow): Endpoint {
    return {
      ServiceName: row.serviceName,
      ManagementPortalUrl: this.options.portalUrlOf(row.serviceName),
      Status: row.status,
      ServiceTier: row.serviceTier,
      AdminMail: row.adminMail,
      CreationDate: row.createdAt.toISOString(),
    };
  }

  async row(tenantId: number): Promise<EndpointRow | undefined> {
    const [row] = await this.db.query<EndpointRow>(
      `select ${endpointColumns('e')} from integration_endpoints e where e.tenant_id = $1`,
      [tenantId],
    );
    return row;
  }

  async create(tenantId: number, body: CreateEndpointBody): Promise<void> {
    if (![0, 1, 2].includes(body.ServiceTier)) throw integrationErrors.invalidServiceTier();
    if (!SERVICE_NAME_PATTERN.test(body.ServiceName)) throw integrationErrors.invalidServiceName();
    if (body.AdminMail.length > 254 || !MAIL_PATTERN.test(body.AdminMail))
      throw integrationErrors.invalidAdminMail();
    try {
      await this.db.rawTransaction(async (sql) => {
        const [existing] = await sql.query<{ status: number }>(
          'select status from integration_endpoints where tenant_id = $1 for update',
          [tenantId],
        );
        if (existing && existing.status !== EndpointStatus.Failed)
          throw integrationErrors.endpointAlreadyExists();
        const [taken] = await sql.query(
          'select 1 from integration_service_names where name_key = lower($1)',
          [body.ServiceName],
        );
        if (taken) throw integrationErrors.serviceNameTaken(body.ServiceName);
        // A failed endpoint is replaced by the new one (never one that a concurrent POST of
        // this tenant has just created: that one makes the insert below fail).
        await sql.query('delete from integration_endpoints where tenant_id = $1 and status = 3', [
          tenantId,
        ]);
        const [created] = await sql.query<{ generation: string }>(
          `insert into integration_endpoints (tenant_id, service_name, service_tier, admin_mail, status)
           values ($1, $2, $3, $4, 1) returning generation::text as generation`,
          [tenantId, body.ServiceName, body.ServiceTier, body.AdminMail],
        );
        // The name is global: of two tenants taking it at once, the second fails here.
        await sql.query(
          'insert into integration_service_names (name_key, owner_tenant_id) values (lower($1), $2)',
          [body.ServiceName, tenantId],
        );
        const jobId = await this.jobs.send(
          PROVISION_QUEUE,
          { tenantId, generation: created!.generation },
          {
            singletonKey: `endpoint-${tenantId}-${created!.generation}`,
            expireInSeconds: this.options.provisioningTimeoutSeconds,
          },
          sql,
        );
        await sql.query('update integration_endpoints set job_id = $2 where tenant_id = $1', [
          tenantId,
          jobId,
        ]);
      });
    } catch (error) {
      const violation = constraintViolationOf(error);
      if (violation?.kind === 'unique') {
        // A concurrent POST of this tenant committed its endpoint first (one row per tenant).
        if (violation.constraint === 'integration_endpoints_pkey')
          throw integrationErrors.endpointAlreadyExists();
        // Another tenant's endpoint took the name first.
        if (violation.constraint === 'integration_service_names_pkey')
          throw integrationErrors.serviceNameTaken(body.ServiceName);
      }
      throw error;
    }
  }

  async get(tenantId: number): Promise<{ endpoint: Endpoint; version: Date }> {
    const row = await this.row(tenantId);
    if (!row) throw integrationErrors.endpointNotFound();
    return { endpoint: this.toEndpoint(row), version: row.updatedAt };
  }

  /**
   * Deletes the endpoint: cancels a creation in progress; the name and the key are free at once.
   * `checkVersion` enforces If-Match against the current row.
   */
  async delete(tenantId: number, checkVersion: (version: Date) => void = () => {}): Promise<void> {
    const deleted = await this.db.rawTransaction(async (sql) => {
      const [current] = await sql.query<{ updatedAt: Date }>(
        'select updated_at as "updatedAt" from integration_endpoints where tenant_id = $1 for update',
        [tenantId],
      );
      if (!current) throw integrationErrors.endpointNotFound();
      checkVersion(current.updatedAt);
      const [row] = await sql.query<{ jobId: string | null; status: number }>(
        'delete from integration_endpoints where tenant_id = $1 returning job_id as "jobId", status',
        [tenantId],
      );
      await sql.query('delete from integration_service_names where owner_tenant_id = $1', [
        tenantId,
      ]);
      return row;
    });
    if (!deleted) throw integrationErrors.endpointNotFound();
    if (deleted.jobId && deleted.status === EndpointStatus.InProgress)
      await this.jobs.cancel(PROVISION_QUEUE, deleted.jobId);
  }

  async subscriptionKey(tenantId: number): Promise<string> {
    const row = await this.row(tenantId);
    if (!row?.subscriptionKey || row.status !== EndpointStatus.Succeeded)
      throw integrationErrors.keyNotReady();
    return row.subscriptionKey;
  }

  /** A new subscription key; the old one stops working at once (the gateway reads keys live). */
  async regenerateSubscriptionKey(tenantId: number): Promise<string> {
    const [row] = await this.db.query<{ key: string }>(
      'update integration_endpoints set subscription_key = $2, updated_at = now() where tenant_id = $1 and status = 2 returning subscription_key as key',
      [tenantId, newSubscriptionKey()],
    );
    if (!row) throw integrationErrors.keyNotReady();
    return row.key;
  }

  /** The live endpoint behind a gateway or portal host's service name. */
  async byServiceName(
    serviceName: string,
  ): Promise<(EndpointRow & { tenantName: string; tenantCreatedAt: Date }) | undefined> {
    const [row] = await this.db.prepared<
      EndpointRow & { tenantName: string; tenantCreatedAt: Date }
    >(
      'integration_endpoint_by_name',
      `select ${endpointColumns('e')}, t.name as "tenantName", t.created_at as "tenantCreatedAt"
         from integration_service_names n
         join integration_endpoints e on e.tenant_id = n.owner_tenant_id
         join tenants t on t.id = e.tenant_id
        where n.name_key = lower($1) and e.status in (1, 2)`,
      [serviceName],
    );
    return row;
  }

  /**
   * The endpoint a portal host shows: the one in creation or live under that name, else the
   * latest failed one, so that a page opened during the creation shows its failure (Status 3)
   * instead of "in progress" for ever.
   */
  async forPortal(
    serviceName: string,
  ): Promise<(EndpointRow & { tenantName: string; tenantCreatedAt: Date }) | undefined> {
    const [row] = await this.db.query<EndpointRow & { tenantName: string; tenantCreatedAt: Date }>(
      `select ${endpointColumns('e')}, t.name as "tenantName", t.created_at as "tenantCreatedAt"
         from integration_endpoints e join tenants t on t.id = e.tenant_id
        where lower(e.service_name) = lower($1)
        order by e.status in (1, 2) desc, e.created_at desc
        limit 1`,
      [serviceName],
    );
    return row;
  }
}
