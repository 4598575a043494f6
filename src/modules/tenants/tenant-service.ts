// Tenants: the rows every other table hangs from, and the lookup from a host's tenant name
// that each request makes (cached briefly: a tenant deleted elsewhere is gone within seconds).
// Creating a tenant makes its bootstrap management app and its first owner (a member) in the
// same transaction (a tenant never exists without a way to manage it); deleting one ends its
// tokens at once.
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { deferConstraints } from '../../db/queries/deferred-constraints.ts';
import type { Tenant, TenantLookup } from '../../domain/tenant.ts';
import { TENANT_NAME_PATTERN } from '../../config.ts';
import { TenantExistsError, TenantNameError } from './tenants-errors.ts';

export type { Tenant };

/** The bootstrap app's credentials, shown once when the tenant is created. */
export interface BootstrapCredentials {
  ApplicationId: string;
  ApplicationSecret: string | null;
}

/** The tenant's first owner (a member who signs in to the console), shown once on creation. */
export interface OwnerCredentials {
  Username: string;
  /** A one-time password: the owner chooses another at the first sign-in. */
  Password: string;
}

/** What the tenants module needs of other modules (passed in by module-wiring.ts). */
export interface TenantNeeds {
  /** Makes the tenant's predefined management app inside the creating transaction. */
  createBootstrapApp(tx: RawSql, tenantId: number): Promise<BootstrapCredentials>;
  /** Makes the tenant's first owner inside the creating transaction. */
  createOwner(tx: RawSql, tenantId: number): Promise<OwnerCredentials>;
  /** Records, inside the deleting transaction, that every token of the tenant is void. */
  invalidateTenantTokens(tx: RawSql, tenantId: number): Promise<void>;
  /**
   * Deletes, inside the deleting transaction, what other modules keep of the tenant without a
   * foreign key to it (which would cascade): the analytics logs.
   */
  deleteTenantData(tx: RawSql, tenantId: number): Promise<void>;
  /** Drops this instance's cached tokens of a deleted tenant, after the delete commits. */
  forgetTenantTokens(tenantId: number): void;
  /** Tells when another instance deleted a tenant (seen with its tokens' invalidation). */
  onDeletedElsewhere(listener: (tenantId: number) => void): void;
}

export interface CreatedTenant {
  tenant: Tenant;
  bootstrapApp: BootstrapCredentials;
  owner: OwnerCredentials;
}

const LOOKUP_TTL_MS = 5_000;
const TENANT_COLUMNS = 'id, name, created_at as "createdAt"';

export class TenantService implements TenantLookup {
  private readonly db: DatabaseHandle;
  private readonly needs: TenantNeeds;
  // "No such tenant" is cached too, so a flood of requests for a bad host stays cheap.
  private readonly byName = new LRUCache<string, Tenant | { missing: true }>({
    max: 10_000,
    ttl: LOOKUP_TTL_MS,
  });

  constructor(db: DatabaseHandle, needs: TenantNeeds) {
    this.db = db;
    this.needs = needs;
  }

  cachedByName(name: string): Tenant | null | undefined {
    const cached = this.byName.get(name);
    if (cached === undefined) return undefined;
    return 'missing' in cached ? null : cached;
  }

  async findByName(name: string): Promise<Tenant | undefined> {
    const cached = this.byName.get(name);
    if (cached) return 'missing' in cached ? undefined : cached;
    const [row] = await this.db.prepared<Tenant>(
      'tenant_by_name',
      `select ${TENANT_COLUMNS} from tenants where name = $1`,
      [name],
    );
    this.byName.set(name, row ?? { missing: true });
    return row;
  }

  /** Forgets what this instance cached of a tenant (another instance deleted it). */
  forget(tenantId: number): void {
    for (const [name, entry] of this.byName.entries())
      if ('id' in entry && entry.id === tenantId) this.byName.delete(name);
  }

  async list(): Promise<Tenant[]> {
    return this.db.query<Tenant>(`select ${TENANT_COLUMNS} from tenants order by name`);
  }

  async create(name: string): Promise<CreatedTenant> {
    if (!TENANT_NAME_PATTERN.test(name)) {
      throw new TenantNameError(
        `Tenant name "${name}" is not valid: 3 to 40 characters, lowercase letters, digits and hyphens, starting with a letter.`,
      );
    }
    const created = await this.db.rawTransaction(async (tx) => {
      const [tenant] = await tx.query<Tenant>(
        `insert into tenants (name) values ($1) on conflict do nothing returning ${TENANT_COLUMNS}`,
        [name],
      );
      if (!tenant) throw new TenantExistsError(`Tenant "${name}" already exists.`);
      return {
        tenant,
        bootstrapApp: await this.needs.createBootstrapApp(tx, tenant.id),
        owner: await this.needs.createOwner(tx, tenant.id),
      };
    });
    this.byName.delete(name);
    return created;
  }

  /** Deletes the tenant and, through cascades, everything it owns. */
  async delete(name: string): Promise<boolean> {
    const deleted = await this.db.rawTransaction(async (tx) => {
      // References between the tenant's own rows are checked once the whole cascade is done
      // (on Citus, on the worker that holds them).
      const [found] = await tx.query<{ id: number }>('select id from tenants where name = $1', [
        name,
      ]);
      if (found) await deferConstraints(tx, found.id);
      const [row] = await tx.query<{ id: number }>(
        'delete from tenants where name = $1 returning id',
        [name],
      );
      if (row) {
        await this.needs.deleteTenantData(tx, row.id);
        await this.needs.invalidateTenantTokens(tx, row.id);
      }
      return row;
    });
    this.byName.delete(name);
    if (!deleted) return false;
    this.needs.forgetTenantTokens(deleted.id);
    return true;
  }
}
