// Item ids for the seeders, taken from the items' own sequence in a statement of their own: on
// Citus a statement that reads distributed tables runs on a worker, where the sequence cannot
// give this column ids, so the seeders write items with these ids instead of the default.
import type { RawSql } from '../src/db/connection/database.ts';

export async function takeItemIds(sql: RawSql, count: number): Promise<number[]> {
  const [row] = await sql.query<{ ids: number[] }>(
    `select array_agg(nextval(pg_get_serial_sequence('items', 'id'))::int order by g) as ids
       from generate_series(1, $1::int) g`,
    [count],
  );
  return row!.ids;
}
