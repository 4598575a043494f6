// Tenant from the Host header (contract §1): {tenant}.{API_HOST}, or DEFAULT_TENANT for any
// other host when single-tenant mode is on. Unknown tenants are 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { routeAccess } from './route-access.ts';
import type { Tenant, TenantService } from '../modules/tenants/tenant-service.ts';

export interface RequestTenant extends Tenant {
  /** The tenant's base URL as clients reach it: the iss and aud of its tokens. */
  baseUrl: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: RequestTenant;
  }
}

/** Another way to address a tenant (the integration gateway): undefined when not its host. */
export type HostResolver = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Tenant | undefined>;

export interface TenantHostOptions {
  apiHost: string;
  hostResolvers?: HostResolver[];
  defaultTenant: string | undefined;
  baseUrlOf: (tenantName: string) => string;
  tenants: TenantService;
}

/** The tenant name a host names, or undefined when the host is not under API_HOST. */
export function tenantNameFromHost(hostname: string, apiHost: string): string | undefined {
  const host = hostname.toLowerCase();
  const suffix = `.${apiHost}`;
  if (!host.endsWith(suffix)) return undefined;
  const label = host.slice(0, -suffix.length);
  return label.includes('.') || label === '' ? undefined : label;
}

export async function resolveTenant(
  request: FastifyRequest,
  reply: FastifyReply,
  options: TenantHostOptions,
): Promise<RequestTenant> {
  for (const resolve of options.hostResolvers ?? []) {
    const tenant = await resolve(request, reply);
    if (tenant) return { ...tenant, baseUrl: options.baseUrlOf(tenant.name) };
  }
  const name = tenantNameFromHost(request.hostname, options.apiHost) ?? options.defaultTenant;
  if (name === undefined) {
    throw new ApiError(
      404,
      'TenantNotFound',
      `No tenant is addressed by host "${request.hostname}"; call {tenant}.${options.apiHost}.`,
    );
  }
  const tenant = await options.tenants.findByName(name);
  if (!tenant) throw new ApiError(404, 'TenantNotFound', `Tenant "${name}" does not exist.`);
  return { ...tenant, baseUrl: options.baseUrlOf(tenant.name) };
}

export function registerTenantResolution(app: FastifyInstance, options: TenantHostOptions): void {
  app.decorateRequest('tenant', null as unknown as RequestTenant);
  app.addHook('onRequest', async (request, reply) => {
    if (routeAccess(request) === 'operator') return;
    request.tenant = await resolveTenant(request, reply, options);
  });
}
