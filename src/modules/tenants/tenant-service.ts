// Tenants: the rows every other table hangs from, and the lookup from a host's tenant name
// that each request makes (cached briefly: a tenant deleted elsewhere is gone within seconds).
import { asc, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database, Executor } from '../../db/database.ts';
import { TENANT_NAME_PATTERN } from '../../config.ts';
import { tenants } from './tables.ts';

export interface Tenant {
  id: number;
  name: string;
  createdAt: Date;
}

export class TenantNameError extends Error {}
export class TenantExistsError extends Error {}

const LOOKUP_TTL_MS = 5_000;

export class TenantService {
  private readonly db: Database;
  // `null` caches "no such tenant" too, so a flood of requests for a bad host stays cheap.
  private readonly byName = new LRUCache<string, Tenant | { missing: true }>({
    max: 10_000,
    ttl: LOOKUP_TTL_MS,
  });

  constructor(db: Database) {
    this.db = db;
  }

  /** The cached answer for a name without waiting: the tenant, null for "no such tenant", or
   * undefined when the cache does not know (then ask findByName). */
  cachedByName(name: string): Tenant | null | undefined {
    const cached = this.byName.get(name);
    if (cached === undefined) return undefined;
    return 'missing' in cached ? null : cached;
  }

  async findByName(name: string): Promise<Tenant | undefined> {
    const cached = this.byName.get(name);
    if (cached) return 'missing' in cached ? undefined : cached;
    const [row] = await this.db.select().from(tenants).where(eq(tenants.name, name)).limit(1);
    this.byName.set(name, row ?? { missing: true });
    return row;
  }

  async list(): Promise<Tenant[]> {
    return this.db.select().from(tenants).orderBy(asc(tenants.name));
  }

  /** Inserts the tenant row inside the caller's transaction (the caller adds its bootstrap app). */
  async insert(tx: Executor, name: string): Promise<Tenant> {
    if (!TENANT_NAME_PATTERN.test(name)) {
      throw new TenantNameError(
        `Tenant name "${name}" is not valid: 3 to 40 characters, lowercase letters, digits and hyphens, starting with a letter.`,
      );
    }
    const inserted = await tx.insert(tenants).values({ name }).onConflictDoNothing().returning();
    const row = inserted[0];
    if (!row) throw new TenantExistsError(`Tenant "${name}" already exists.`);
    this.byName.delete(name);
    return row;
  }

  /** Deletes the tenant and, through cascades, everything it owns. */
  async delete(name: string): Promise<boolean> {
    const deleted = await this.db.transaction(async (tx) => {
      // References between the tenant's own rows are checked once the whole cascade is done.
      await tx.execute(sql`set constraints all deferred`);
      return tx.delete(tenants).where(eq(tenants.name, name)).returning({ id: tenants.id });
    });
    this.byName.delete(name);
    return deleted.length > 0;
  }
}
