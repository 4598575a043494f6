// Price types (currencies and price lists) that item prices refer to.
import type { DatabaseHandle } from '../../../db/database.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { assertBodyIdMatches } from '../../../http/body-id.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { translatingConstraints } from '../../../http/constraint-errors.ts';
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

  list(tenantId: number, paging: Paging): Promise<Page<PriceType>> {
    return pagedList(this.db, 'price_types', COLUMNS, tenantId, paging);
  }

  async update(tenantId: number, id: number, body: PriceTypeBody): Promise<PriceType> {
    assertBodyIdMatches(body.Id, id);
    const [row] = await this.db.query<PriceType>(
      `update price_types set description = $3, symbol = $4 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
      [tenantId, id, body.Description, body.PriceTypeSymbol],
    );
    if (!row) throw notFound(`Price type ${id}`);
    return row;
  }

  async delete(tenantId: number, id: number): Promise<void> {
    const deleted = await translatingConstraints(
      () =>
        this.db.query('delete from price_types where tenant_id = $1 and id = $2 returning id', [
          tenantId,
          id,
        ]),
      {
        stillReferenced: () =>
          conflict(
            'PriceTypeInUse',
            `Price type ${id} is used by item prices; remove those prices first.`,
          ),
      },
    );
    if (deleted.length === 0) throw notFound(`Price type ${id}`);
  }
}
