// Price types (currencies and price lists) that item prices refer to.
import type { DatabaseHandle } from '../../../db/database.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { versioned, type Versioned } from '../../../db/row-version.ts';
import { deleteVersioned, fetchVersioned, updateVersioned } from '../../../db/versioned-rows.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/constraint-translation.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { PriceType, PriceTypeBody } from './price-type-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description", symbol as "PriceTypeSymbol"';
const TABLE = { name: 'price_types', columns: COLUMNS, missing: catalogErrors.priceTypeNotFound };

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

  get(tenantId: number, id: number): Promise<Versioned<PriceType>> {
    return fetchVersioned(this.db, TABLE, tenantId, id);
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
    return updateVersioned(
      this.db,
      TABLE,
      tenantId,
      id,
      'description = $3, symbol = $4',
      [body.Description, body.PriceTypeSymbol],
      checkVersion,
    );
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () => deleteVersioned(this.db, TABLE, tenantId, id, checkVersion),
      { stillReferenced: () => catalogErrors.priceTypeInUse(id) },
    );
  }
}
