// On a Citus cluster, the migrations leave every table with tenant_id distributed by it in one
// colocation group, every other table of the public schema a reference table unless it is named
// in coordinator_local_tables (src/db/citus/distribution.ts), and every function of ours on the
// workers, where the triggers that call them run. Runs when the suite's database is a Citus
// coordinator (TEST_DATABASE_URL), which the CI's third run is.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const source = inject('testDatabase');
const citus = source.engine === 'postgres' && source.citusWorkers !== undefined;

let database: TestDatabase;

beforeAll(async () => {
  if (citus) database = await openTestDatabase();
});
afterAll(() => database?.handle.close());

interface Placement {
  name: string;
  tenant: boolean;
  kind: 'distributed' | 'reference' | 'local' | 'citus local';
  column: string | null;
  colocation: number | null;
}

async function placements(): Promise<Placement[]> {
  return database.handle.query<Placement>(
    `select c.relname as name,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id'
                      and not a.attisdropped) as tenant,
            case when p.partmethod = 'h' then 'distributed' when p.repmodel = 't' then 'reference'
                 when p.logicalrelid is not null then 'citus local' else 'local' end as kind,
            case when p.partmethod = 'h' then column_to_column_name(p.logicalrelid, p.partkey) end as column,
            p.colocationid as colocation
       from pg_class c left join pg_dist_partition p on p.logicalrelid = c.oid
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`,
  );
}

describe.runIf(citus)('the schema on a Citus cluster', () => {
  it('distributes every table with tenant_id by it, all in one colocation group', async () => {
    const tenantTables = (await placements()).filter((p) => p.tenant);
    expect(tenantTables.length).toBeGreaterThan(40);
    for (const table of tenantTables)
      expect({ name: table.name, kind: table.kind, column: table.column }).toEqual({
        name: table.name,
        kind: 'distributed',
        column: 'tenant_id',
      });
    expect(new Set(tenantTables.map((t) => t.colocation)).size).toBe(1);
  });

  it('makes every global table a reference table, but those named to stay on the coordinator', async () => {
    const local = (
      await database.handle.query<{ name: string; reason: string }>(
        'select table_name as name, reason from coordinator_local_tables order by 1',
      )
    ).map((row) => row.name);
    expect(local).toEqual(
      expect.arrayContaining(['coordinator_local_tables', 'gateway_rate_windows', 'job_runs']),
    );
    for (const table of (await placements()).filter((p) => !p.tenant))
      expect({ name: table.name, kind: table.kind }).toEqual({
        name: table.name,
        kind: local.includes(table.name) ? 'local' : 'reference',
      });
  });

  it('has every function of ours on the workers, where the shards’ triggers call them', async () => {
    const missing = await database.handle.query<{ name: string }>(
      `select p.oid::regprocedure::text as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
                            and d.objid = p.oid and d.deptype = 'e')
          and not exists (select 1 from pg_dist_object o where o.classid = 'pg_proc'::regclass
                            and o.objid = p.oid)`,
    );
    expect(missing).toEqual([]);
  });

  it('keeps the job queue’s own tables on the coordinator', async () => {
    const distributed = await database.handle.query<{ name: string }>(
      `select logicalrelid::regclass::text as name from pg_dist_partition p
         join pg_class c on c.oid = p.logicalrelid
        where c.relnamespace <> 'public'::regnamespace`,
    );
    expect(distributed).toEqual([]);
  });
});
