// Where rows live on a Citus cluster, for work that reads across tenants and must go on when a
// worker cannot be reached (docs/operations.md, "Fault isolation"): a statement that reads every
// shard fails as a whole when one worker is down, while the same statement restricted to the
// tenants of one worker (`tenant_id = any($1)`, which Citus prunes to their shards) reads that
// worker alone.
import type { RawSql } from '../connection/database.ts';

/**
 * `values` of `table`'s distribution column grouped by the node that holds their shard (its
 * group: a worker and its standbys), in node order. Values of one group share a worker.
 */
export async function valuesByNode(
  sql: RawSql,
  table: string,
  values: readonly number[],
): Promise<number[][]> {
  if (values.length === 0) return [];
  const rows = await sql.query<{ values: number[] }>(
    `select array_agg(v order by v) as values
       from unnest($2::int[]) v
       join pg_dist_placement p on p.shardid = get_shard_id_for_distribution_column($1::regclass, v)
      group by p.groupid order by p.groupid`,
    [table, values],
  );
  return rows.map((row) => row.values.map(Number));
}
