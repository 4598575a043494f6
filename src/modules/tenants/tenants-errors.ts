// The tenants module's errors (CLI and operator surface; tenants have no HTTP routes).
export class TenantNameError extends Error {}
export class TenantExistsError extends Error {}
