// A page of one tenant's rows of a simple catalog table, with the count of all of them.
import type { DatabaseHandle } from '../../db/database.ts';
import type { Page, Paging } from '../../http/paging.ts';

export async function pagedList<Row>(
  db: DatabaseHandle,
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
