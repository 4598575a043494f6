// The tenants module: tenant rows and the host → tenant lookup. It has no HTTP routes (tenants
// are made and removed by the operator's CLI).
import type { AppModule, ModuleContext } from '../../module.ts';
import { TenantService, type TenantNeeds } from './tenant-service.ts';

export type { TenantService } from './tenant-service.ts';
/** What the CLI tells the operator as is (a bad or taken tenant name). */
export { TenantExistsError, TenantNameError } from './tenant-errors.ts';

export interface TenantsServices {
  tenants: TenantService;
}

export function createTenantsModule(
  context: ModuleContext,
  needs: TenantNeeds,
): AppModule<TenantsServices> {
  return { name: 'tenants', services: { tenants: new TenantService(context.database, needs) } };
}
