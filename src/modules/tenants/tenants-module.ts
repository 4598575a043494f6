// The tenants module: tenant rows and the host → tenant lookup. It has no HTTP routes (tenants
// are made and removed by the operator's CLI). It sits above oauth and members: a tenant is made
// with its bootstrap app and first owner, and its deletion ends its tokens.
import type { AppModule, ModuleContext } from '../../module.ts';
import { TenantService, type TenantNeeds } from './tenant-service.ts';

/** Its commands of the CLI (src/main.ts). */
export { tenantsCommands } from './tenants-commands.ts';

export type { TenantService } from './tenant-service.ts';
/** What the CLI tells the operator as is (a bad or taken tenant name). */
export { TenantExistsError, TenantNameError } from './tenants-errors.ts';

export interface TenantsServices {
  tenants: TenantService;
}

export function createTenantsModule(
  context: ModuleContext,
  needs: TenantNeeds,
): AppModule<TenantsServices> {
  const tenants = new TenantService(context.database, needs);
  needs.onDeletedElsewhere((tenantId) => tenants.forget(tenantId));
  return { name: 'tenants', services: { tenants } };
}
