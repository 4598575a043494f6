// Pages of one tenant's rows of a simple table, in id order, with the count of all of them: the
// `{Results, TotalCount}` shape of every list (contract §4).
import type { Page, Paging } from '../../domain/paging.ts';

export type { Page, Paging };

interface Queryable {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** A page of `table` (which has tenant_id and id) with `columns` selected, in id order. */
export async function pagedList<Row>(
  db: Queryable,
  table: string,
  columns: string,
  tenantId: number,
  paging: Paging,
): Promise<Page<Row>> {
  const [rows, [total]] = await Promise.all([
    db.query<Row>(
      `select ${columns} from ${table} where tenant_id = $1 order by id offset $2 limit $3`,
      [tenantId, paging.skip, paging.take],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from ${table} where tenant_id = $1`, [
      tenantId,
    ]),
  ]);
  return { Results: rows, TotalCount: total?.n ?? 0 };
}
