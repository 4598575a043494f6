// Price types (currencies and price lists) that item prices refer to.
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import { pagedList } from '../../../db/queries/paged-list.ts';
import { versioned, type Versioned } from '../../../db/queries/row-version.ts';
import { deleteVersioned, fetchVersioned } from '../../../db/queries/versioned-rows.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import { catalogErrors } from '../catalog-errors.ts';
import { PRICE_TYPE_LOCK, priceTypeSymbolTaken, sameName } from '../catalog-name-rules.ts';
import type { PriceType, PriceTypeBody } from './price-type-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description", symbol as "PriceTypeSymbol"';
const TABLE = { name: 'price_types', columns: COLUMNS, missing: catalogErrors.priceTypeNotFound };

export class PriceTypeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  /** A symbol identifies its price type (the import and item prices name it): 409 when taken. */
  async create(tenantId: number, body: PriceTypeBody): Promise<Versioned<PriceType>> {
    return this.db.rawTransaction(async (sql) => {
      await sql.query(PRICE_TYPE_LOCK, [tenantId]);
      if (await priceTypeSymbolTaken(sql, tenantId, body.PriceTypeSymbol))
        throw catalogErrors.duplicatePriceType(body.PriceTypeSymbol);
      const [row] = await sql.query<PriceType & { version: number }>(
        `insert into price_types (tenant_id, description, symbol) values ($1, $2, $3) returning ${COLUMNS}, version`,
        [tenantId, body.Description, body.PriceTypeSymbol],
      );
      return versioned(row!);
    });
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
    return this.db.rawTransaction(async (sql) => {
      await sql.query(PRICE_TYPE_LOCK, [tenantId]);
      const [current] = await sql.query<{ symbol: string; version: number }>(
        'select symbol, version from price_types where tenant_id = $1 and id = $2 for update',
        [tenantId, id],
      );
      if (!current) throw catalogErrors.priceTypeNotFound(id);
      checkVersion(current.version);
      // A symbol shared from before the rule may stay; a change must not make a duplicate.
      const symbol = body.PriceTypeSymbol;
      if (
        symbol !== current.symbol &&
        !(await sameName(sql, symbol, current.symbol)) &&
        (await priceTypeSymbolTaken(sql, tenantId, symbol, id))
      )
        throw catalogErrors.duplicatePriceType(symbol);
      const [row] = await sql.query<PriceType & { version: number }>(
        `update price_types set description = $3, symbol = $4, version = version + 1
          where tenant_id = $1 and id = $2 returning ${COLUMNS}, version`,
        [tenantId, id, body.Description, symbol],
      );
      return versioned(row!);
    });
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () => deleteVersioned(this.db, TABLE, tenantId, id, checkVersion),
      { stillReferenced: () => catalogErrors.priceTypeInUse(id) },
    );
  }
}
