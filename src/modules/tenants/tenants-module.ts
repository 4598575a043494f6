// The tenants module: tenant rows and the host → tenant lookup. It has no HTTP routes (tenants
// are made and removed by the operator's CLI).
import type { AppModule, ModuleContext } from '../../module.ts';
import { TenantService, type TenantNeeds } from './tenant-service.ts';

export interface TenantsServices {
  tenants: TenantService;
}

export function createTenantsModule(
  context: ModuleContext,
  needs: TenantNeeds,
): AppModule<TenantsServices> {
  return { name: 'tenants', services: { tenants: new TenantService(context.database, needs) } };
}
