// Tenant from the Host header (contract §1): {tenant}.{API_HOST}, or DEFAULT_TENANT for any
// other host when single-tenant mode is on. Unknown tenants are 404. The host's root dot
// (`acme.localhost.`) is gone before this reads it (host-name.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { isMalformedHostName } from './host-name.ts';
import { routeAccess } from './route-access.ts';
import type { RequestTenant, Tenant, TenantLookup } from '../domain/tenant.ts';

export type { RequestTenant, Tenant, TenantLookup };

declare module 'fastify' {
  interface FastifyRequest {
    tenant: RequestTenant;
  }
}

/** Another way to address a tenant (the integration gateway). */
export interface HostResolver {
  /** Whether a host is this resolver's to answer, decided from the host name alone. */
  handles(hostname: string): boolean;
  /** The tenant the request addresses; throws the request's error when it has none. */
  resolve(request: FastifyRequest, reply: FastifyReply): Promise<Tenant>;
}

export interface TenantHostOptions {
  apiHost: string;
  hostResolvers?: HostResolver[];
  defaultTenant: string | undefined;
  baseUrlOf: (tenantName: string) => string;
  tenants: TenantLookup;
}

/** The tenant name a host names, or undefined when the host is not under API_HOST. */
export function tenantNameFromHost(hostname: string, apiHost: string): string | undefined {
  const host = hostname.toLowerCase();
  const suffix = `.${apiHost}`;
  if (!host.endsWith(suffix)) return undefined;
  const label = host.slice(0, -suffix.length);
  return label.includes('.') || label === '' ? undefined : label;
}

function tenantNotFound(name: string): ApiError {
  return new ApiError(404, 'TenantNotFound', `Tenant "${name}" does not exist.`);
}

export function registerTenantResolution(app: FastifyInstance, options: TenantHostOptions): void {
  const resolvers = options.hostResolvers ?? [];
  // API_HOST written as a fully qualified name (`example.com.`) is the same name.
  const apiHost = options.apiHost.toLowerCase().replace(/\.$/, '');
  // One RequestTenant per cached tenant row: most requests find both cached and allocate nothing.
  const requestTenants = new WeakMap<Tenant, RequestTenant>();
  const requestTenantOf = (tenant: Tenant): RequestTenant => {
    let found = requestTenants.get(tenant);
    if (!found) {
      found = { ...tenant, baseUrl: options.baseUrlOf(tenant.name) };
      requestTenants.set(tenant, found);
    }
    return found;
  };

  app.decorateRequest('tenant', null as unknown as RequestTenant);
  // A callback hook with a synchronous path: a tenant found in the cache costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused (Node's own refusal has no body,
    // so the server lets such requests through to here; requireHostHeader: false).
    if (request.raw.headers.host === undefined && request.raw.httpVersion === '1.1')
      return done(
        new ApiError(400, 'MissingHost', 'An HTTP/1.1 request must carry a Host header.'),
      );
    if (routeAccess(request) === 'operator') return done();
    const hostname = request.hostname;
    const resolver = resolvers.find((r) => r.handles(hostname));
    if (resolver) {
      resolver.resolve(request, reply).then((tenant) => {
        request.tenant = requestTenantOf(tenant);
        done();
      }, done);
      return;
    }
    let name = tenantNameFromHost(hostname, apiHost);
    // The default tenant serves other host names, not malformed ones (`acme.localhost..`): a
    // proxy in front may take those for another host than the one this server would serve.
    if (name === undefined && !isMalformedHostName(hostname)) name = options.defaultTenant;
    if (name === undefined) {
      return done(
        new ApiError(
          404,
          'TenantNotFound',
          `No tenant is addressed by host "${hostname}"; call {tenant}.${apiHost}.`,
        ),
      );
    }
    const cached = options.tenants.cachedByName(name);
    if (cached !== undefined) {
      if (cached === null) return done(tenantNotFound(name));
      request.tenant = requestTenantOf(cached);
      return done();
    }
    options.tenants.findByName(name).then((tenant) => {
      if (!tenant) return done(tenantNotFound(name));
      request.tenant = requestTenantOf(tenant);
      done();
    }, done);
  });
}
