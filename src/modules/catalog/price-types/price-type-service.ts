// Price types (currencies and price lists) that item prices refer to.
import type { DatabaseHandle } from '../../../db/database.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { lockForWrite, versioned, type Versioned } from '../../../db/row-version.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/constraint-translation.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { PriceType, PriceTypeBody } from './price-type-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description", symbol as "PriceTypeSymbol"';

export class PriceTypeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: PriceTypeBody): Promise<Versioned<PriceType>> {
    const [row] = await this.db.query<PriceType & { version: number }>(
      `insert into price_types (tenant_id, description, symbol) values ($1, $2, $3) returning ${COLUMNS}, version`,
      [tenantId, body.Description, body.PriceTypeSymbol],
    );
    return versioned(row!);
  }

  async get(tenantId: number, id: number): Promise<Versioned<PriceType>> {
    const [row] = await this.db.query<PriceType & { version: number }>(
      `select ${COLUMNS}, version from price_types where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw catalogErrors.priceTypeNotFound(id);
    return versioned(row);
  }

  list(tenantId: number, paging: Paging): Promise<Page<PriceType>> {
    return pagedList(this.db, 'price_types', COLUMNS, tenantId, paging);
  }

  async update(
    tenantId: number,
    id: number,
    body: PriceTypeBody,
    checkVersion: VersionCheck,
  ): Promise<Versioned<PriceType>> {
    assertBodyIdMatches(body.Id, id);
    return this.db.rawTransaction(async (sql) => {
      await lockForWrite(sql, 'price_types', tenantId, id, checkVersion, () =>
        catalogErrors.priceTypeNotFound(id),
      );
      const [row] = await sql.query<PriceType & { version: number }>(
        `update price_types set description = $3, symbol = $4, version = version + 1
          where tenant_id = $1 and id = $2 returning ${COLUMNS}, version`,
        [tenantId, id, body.Description, body.PriceTypeSymbol],
      );
      return versioned(row!);
    });
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await lockForWrite(sql, 'price_types', tenantId, id, checkVersion, () =>
            catalogErrors.priceTypeNotFound(id),
          );
          await sql.query('delete from price_types where tenant_id = $1 and id = $2', [
            tenantId,
            id,
          ]);
        }),
      { stillReferenced: () => catalogErrors.priceTypeInUse(id) },
    );
  }
}
