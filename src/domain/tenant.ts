// Tenants as everything outside the tenants module sees them: who a request or a token belongs
// to. The tenants module keeps them and answers a TenantLookup; app.ts gives it to the HTTP layer.

/** A tenant as every request sees it (the tenants module keeps them). */
export interface Tenant {
  id: number;
  name: string;
  createdAt: Date;
}

/** Finds tenants by the name a host carries (the tenants module, with its cache). */
export interface TenantLookup {
  /** The cached answer without waiting: the tenant, null for "no such tenant", or undefined
   * when the cache does not know (then ask findByName). */
  cachedByName(name: string): Tenant | null | undefined;
  findByName(name: string): Promise<Tenant | undefined>;
}

export interface RequestTenant extends Tenant {
  /** The tenant's base URL as clients reach it: the iss and aud of its tokens. */
  baseUrl: string;
}
