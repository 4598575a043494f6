// Price types (currencies and price lists) that item prices refer to.
import type { DatabaseHandle } from '../../../db/database.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { isForeignKeyViolation } from '../sql-errors.ts';
import type { PriceType, PriceTypeBody } from './price-type-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description", symbol as "PriceTypeSymbol"';

export class PriceTypeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: PriceTypeBody): Promise<PriceType> {
    const [row] = await this.db.query<PriceType>(
      `insert into price_types (tenant_id, description, symbol) values ($1, $2, $3) returning ${COLUMNS}`,
      [tenantId, body.Description, body.PriceTypeSymbol],
    );
    return row!;
  }

  async get(tenantId: number, id: number): Promise<PriceType> {
    const [row] = await this.db.query<PriceType>(
      `select ${COLUMNS} from price_types where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Price type ${id}`);
    return row;
  }

  async list(tenantId: number, paging: Paging): Promise<Page<PriceType>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<PriceType>(
        `select ${COLUMNS} from price_types where tenant_id = $1 order by id offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from price_types where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows, TotalCount: total?.n ?? 0 };
  }

  async update(tenantId: number, id: number, body: PriceTypeBody): Promise<PriceType> {
    const [row] = await this.db.query<PriceType>(
      `update price_types set description = $3, symbol = $4 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
      [tenantId, id, body.Description, body.PriceTypeSymbol],
    );
    if (!row) throw notFound(`Price type ${id}`);
    return row;
  }

  async delete(tenantId: number, id: number): Promise<void> {
    try {
      const deleted = await this.db.query(
        'delete from price_types where tenant_id = $1 and id = $2 returning id',
        [tenantId, id],
      );
      if (deleted.length === 0) throw notFound(`Price type ${id}`);
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(
          'PriceTypeInUse',
          `Price type ${id} is used by item prices; remove those prices first.`,
        );
      throw error;
    }
  }

  /** The ids among `ids` that do not exist for the tenant. */
  async missing(tenantId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<{ id: number }>(
      'select id from price_types where tenant_id = $1 and id = any($2::int[])',
      [tenantId, ids],
    );
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }
}
