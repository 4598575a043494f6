// Creating a tenant makes its bootstrap management app in the same transaction: a tenant
// never exists without a way to manage it.
import type { Database } from '../../db/database.ts';
import type { App } from '../oauth/app-schemas.ts';
import type { AppService } from '../oauth/app-service.ts';
import type { Tenant, TenantService } from './tenant-service.ts';

export interface CreatedTenant {
  tenant: Tenant;
  bootstrapApp: App;
}

export async function createTenantWithBootstrapApp(
  db: Database,
  tenants: TenantService,
  apps: AppService,
  name: string,
): Promise<CreatedTenant> {
  return db.transaction(async (tx) => {
    const tenant = await tenants.insert(tx, name);
    const bootstrapApp = await apps.createBootstrap(tx, tenant.id);
    return { tenant, bootstrapApp };
  });
}
