// `omni distribute` (src/db/citus/distribution.ts, distributeExisting): a database built by today's
// migrations on one PostgreSQL, with data in every table, whose server then became the
// coordinator of a Citus cluster, is distributed while a writer goes on adding items — every row
// kept as it was, none of the writer's acknowledged writes lost or doubled, its only refusals
// deadlocks it retries — and ends as a fresh Citus database is (citus-placement.test.ts), its
// foreign keys made again and validated, its triggers running on the workers. Runs when the
// suite's database is a Citus coordinator.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { wrapPool } from '../../src/db/connection/database.ts';
import { distributeExisting } from '../../src/db/citus/distribute-existing.ts';
import { migrateDatabase } from '../../src/migrate-database.ts';
import {
  createClusterDatabase,
  dropClusterDatabase,
  enableCitus,
  type ClusterNode,
} from '../support/citus-cluster.ts';
import { databaseUrlFor } from '../support/database-url.ts';

const source = inject('testDatabase');
const workers: ClusterNode[] | undefined =
  source.engine === 'postgres' ? source.citusWorkers : undefined;
const coordinatorUrl = source.engine === 'postgres' ? source.url : '';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/every-table.sql');
/** Tables that are empty but while `omni distribute` runs. */
const EMPTY_BY_DESIGN = ['distribution_pending_keys'];
/** The tenant the writer adds items to while the distribution runs; the rows compared are the other's. */
const WRITER_TENANT = 2;

const name = `omni_distribute_${randomBytes(4).toString('hex')}`;
let url: string;
let pool: pg.Pool;

beforeAll(async () => {
  if (!workers) return;
  await createClusterDatabase(coordinatorUrl, workers, name, undefined, { citus: false });
  url = databaseUrlFor(coordinatorUrl, name);
  pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  await migrateDatabase(wrapPool(pool, url));
  await pool.query(await readFile(FIXTURE, 'utf8'));
}, 300_000);
afterAll(async () => {
  await pool?.end();
  if (workers) await dropClusterDatabase(coordinatorUrl, workers, name);
});

async function tables(db = pool): Promise<{ name: string; tenant: boolean }[]> {
  return (
    await db.query<{ name: string; tenant: boolean }>(
      `select c.relname as name,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id'
                        and not a.attisdropped) as tenant
         from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
        order by 1`,
    )
  ).rows;
}

/** Every row of every table but the writer's tenant's, each table's rows in a fixed order. */
async function rows(db = pool): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of await tables(db)) {
    const { rows: found } = await db.query<{ row: string }>(
      `select to_jsonb(t)::text as row from ${table.name} t
        ${table.tenant ? `where tenant_id <> ${WRITER_TENANT}` : ''} order by 1`,
    );
    dump[table.name] = found.map((r) => r.row);
  }
  return dump;
}

describe.runIf(workers)('omni distribute on a database in use', () => {
  it('has data in every table before it runs', async () => {
    const empty = Object.entries(await rows())
      .filter(([table, found]) => found.length === 0 && !EMPTY_BY_DESIGN.includes(table))
      .map(([table]) => table);
    expect(empty, 'tables without a row in fixtures/every-table.sql').toEqual([]);
  });

  it('distributes it online with no row changed and no acknowledged write lost', async () => {
    // 50 idempotency keys: a table that no trigger touches, large enough (onlineFrom below) to
    // be distributed online.
    await pool.query(
      `insert into idempotency_keys (tenant_id, app_id, key, fingerprint, claim, expires_at)
       select $1, '00000000-0000-4000-8000-000000000002', 'key-' || n, 'fp', gen_random_uuid(),
              now() + interval '1 day'
         from generate_series(1, 50) n`,
      [WRITER_TENANT],
    );
    await enableCitus(coordinatorUrl, workers!, name);
    const before = await rows();

    let writing = true;
    const acknowledged: number[] = [];
    const failures: string[] = [];
    // Refusals allowed while the writes wait: a deadlock with the distribution's locks, which
    // PostgreSQL ends by failing one side (the API answers 503 with Retry-After; the writer
    // retries).
    const retryable = /deadlock detected/;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        try {
          const { rows: made } = await pool.query<{ id: number }>(
            'insert into items (tenant_id, title) values ($1, $2) returning id',
            [WRITER_TENANT, `Written during the distribution ${n}`],
          );
          acknowledged.push(made[0]!.id);
        } catch (error) {
          failures.push((error as Error).message);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    })();
    const report: string[] = [];
    const done = await distributeExisting(url, (line) => report.push(line), { onlineFrom: 40 });
    writing = false;
    await writer;

    expect(await rows()).toEqual(before);
    expect(done.online.length + done.blocking.length).toBeGreaterThan(40);
    // The tables a trigger touches go together, their writes held; the other large one online.
    expect(done.online, report.join('\n')).toEqual(['idempotency_keys']);
    expect(done.blocking).toEqual(expect.arrayContaining(['events', 'item_search_rows', 'items']));
    expect(acknowledged.length).toBeGreaterThan(0);
    const { rows: written } = await pool.query<{ id: number; n: number }>(
      `select id, count(*)::int as n from items where tenant_id = $1 and title like 'Written during%'
        group by id order by id`,
      [WRITER_TENANT],
    );
    expect(written.map((r) => r.id)).toEqual([...acknowledged].sort((a, b) => a - b));
    expect(written.every((r) => r.n === 1)).toBe(true);
    expect(failures.filter((f) => !retryable.test(f))).toEqual([]);
    console.log(
      `omni distribute: ${acknowledged.length} items written during it, ${failures.length} refused (${[...new Set(failures)].join('; ')})`,
    );
  }, 600_000);

  it('ends with every table placed as on a fresh Citus database and every foreign key valid', async () => {
    const { rows: placed } = await pool.query<{ name: string; kind: string; colocation: number }>(
      `select c.relname as name,
              case when p.partmethod = 'h' then 'distributed' when p.repmodel = 't' then 'reference'
                   when p.logicalrelid is not null then 'citus local' else 'local' end as kind,
              p.colocationid as colocation
         from pg_class c left join pg_dist_partition p on p.logicalrelid = c.oid
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`,
    );
    const { rows: local } = await pool.query<{ name: string }>(
      'select table_name as name from coordinator_local_tables',
    );
    const tenantTables = new Set((await tables()).filter((t) => t.tenant).map((t) => t.name));
    for (const table of placed)
      expect({ name: table.name, kind: table.kind }).toEqual({
        name: table.name,
        kind: tenantTables.has(table.name)
          ? 'distributed'
          : local.some((l) => l.name === table.name)
            ? 'local'
            : 'reference',
      });
    expect(
      new Set(placed.filter((t) => t.kind === 'distributed').map((t) => t.colocation)).size,
    ).toBe(1);
    const { rows: keys } = await pool.query<{ name: string; valid: boolean }>(
      `select conname as name, convalidated as valid from pg_constraint
        where contype = 'f' and connamespace = 'public'::regnamespace`,
    );
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((k) => !k.valid)).toEqual([]);
    expect((await pool.query('select * from distribution_pending_keys')).rows).toEqual([]);
  });

  it('keeps every trigger working on the workers', async () => {
    const {
      rows: [item],
    } = await pool.query<{ id: number; document: string }>(
      `insert into items (tenant_id, title, category_id) values (1, 'Brass lantern', 2)
       returning id, document`,
    );
    await pool.query(
      'insert into item_prices (tenant_id, item_id, price_type_id, normal_price) values (1, $1, 1, 40)',
      [item!.id],
    );
    const {
      rows: [after],
    } = await pool.query<{ document: string; searchable: boolean; events: number }>(
      `select i.document,
              exists (select 1 from item_search_rows s where s.tenant_id = 1 and s.item_id = i.id) as searchable,
              (select count(*)::int from events e where e.tenant_id = 1 and e.resource_id = i.id::text) as events
         from items i where i.tenant_id = 1 and i.id = $1`,
      [item!.id],
    );
    expect(JSON.parse(after!.document)).toMatchObject({
      Title: 'Brass lantern',
      Prices: [{ NormalPrice: 40, PriceTypeSymbol: 'EUR' }],
    });
    expect(after!.searchable).toBe(true);
    expect(after!.events).toBe(2);
  });
});

/** The schema's tables, columns, constraints, indexes, triggers and placements, as text. */
async function schemaOf(db: pg.Pool): Promise<string[]> {
  const { rows: found } = await db.query<{ line: string }>(
    `select 'column ' || table_name || '.' || column_name || ' ' || data_type as line
       from information_schema.columns where table_schema = 'public'
     union all
     select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) || ' ' || convalidated::text
       from pg_constraint where connamespace = 'public'::regnamespace
     union all
     select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
     union all
     select 'trigger ' || tgrelid::regclass || ' ' || tgname from pg_trigger
      where not tgisinternal and tgrelid::regclass::text !~ '_[0-9]+$'
     union all
     select 'placed ' || logicalrelid::regclass || ' ' || partmethod::text || ' ' || repmodel::text
       from pg_dist_partition
     order by 1`,
  );
  return found.map((row) => row.line);
}

/** Thrown by the report of a step not seen before: the run stops right after that step. */
class StoppedAfter extends Error {}

describe.runIf(workers)('omni distribute stopped after a step', () => {
  const stopped = `omni_distribute_stopped_${randomBytes(4).toString('hex')}`;
  let db: pg.Pool;
  let stoppedUrl: string;

  beforeAll(async () => {
    await createClusterDatabase(coordinatorUrl, workers!, stopped, undefined, { citus: false });
    stoppedUrl = databaseUrlFor(coordinatorUrl, stopped);
    db = new pg.Pool({ connectionString: stoppedUrl, max: 2 });
    db.on('error', () => {});
    await migrateDatabase(wrapPool(db, stoppedUrl));
    await db.query(await readFile(FIXTURE, 'utf8'));
    await db.query(
      `insert into idempotency_keys (tenant_id, app_id, key, fingerprint, claim, expires_at)
       select 1, '00000000-0000-4000-8000-000000000001', 'stop-key-' || n, 'fp', gen_random_uuid(),
              now() + interval '1 day'
         from generate_series(1, 50) n`,
    );
    await enableCitus(coordinatorUrl, workers!, stopped);
  }, 300_000);
  afterAll(async () => {
    await db?.end();
    if (workers) await dropClusterDatabase(coordinatorUrl, workers, stopped);
  });

  it('runs again from each step it stopped after, and then changes nothing', async () => {
    const before = await rows(db);
    // Each run stops right after the first step it reports that no run reported before; the
    // next run goes on from there.
    const reported = new Set<string>();
    const stops: string[] = [];
    for (let run = 1; ; run++) {
      expect(run, stops.join('\n')).toBeLessThan(200);
      try {
        await distributeExisting(
          stoppedUrl,
          (line) => {
            if (reported.has(line)) return;
            reported.add(line);
            stops.push(line);
            throw new StoppedAfter(line);
          },
          { onlineFrom: 40 },
        );
        break;
      } catch (error) {
        if (!(error instanceof StoppedAfter))
          throw new Error(
            `${(error as Error).message} (stopped before after: ${stops.join('; ')})`,
            {
              cause: error,
            },
          );
      }
    }
    expect(stops.length).toBeGreaterThan(5);
    expect(stops).toEqual(
      expect.arrayContaining(['idempotency_keys: distributed by tenant_id, online']),
    );
    expect(await rows(db)).toEqual(before);
    expect((await db.query('select * from distribution_pending_keys')).rows).toEqual([]);
    const schema = await schemaOf(db);
    expect(
      schema.filter((line) => line.startsWith('constraint') && line.endsWith(' false')),
    ).toEqual([]);

    const again = await distributeExisting(stoppedUrl, () => {}, { onlineFrom: 40 });
    expect(again).toEqual({ reference: [], online: [], blocking: [], foreignKeys: 0 });
    expect(await schemaOf(db)).toEqual(schema);
    expect(await rows(db)).toEqual(before);
  }, 900_000);
});
