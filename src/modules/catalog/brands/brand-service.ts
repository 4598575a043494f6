// Brands, and the distinct brands of the items in a category subtree.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { pagedList } from '../../../db/queries/paged-list.ts';
import { lockForWrite, versioned, type Versioned } from '../../../db/queries/row-version.ts';
import {
  deleteVersioned,
  fetchVersioned,
  updateVersioned,
} from '../../../db/queries/versioned-rows.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { Brand, BrandBody } from './brand-schemas.ts';
import { subtreeSql } from '../categories/category-depth.ts';

const COLUMNS = 'id as "Id", name as "Name"';
const TABLE = { name: 'brands', columns: COLUMNS, missing: catalogErrors.brandNotFound };

export class BrandService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: BrandBody): Promise<Versioned<Brand>> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Brand & { version: number }>(
          `insert into brands (tenant_id, name) values ($1, $2) returning ${COLUMNS}, version`,
          [tenantId, body.Name],
        ),
      { unique: () => catalogErrors.duplicateBrandName(body.Name) },
    );
    return versioned(row!);
  }

  get(tenantId: number, id: number): Promise<Versioned<Brand>> {
    return fetchVersioned(this.db, TABLE, tenantId, id);
  }

  /** Whether the brand exists (the catalog's asset relations check it before relating an asset). */
  async exists(tenantId: number, id: number): Promise<boolean> {
    const rows = await this.db.query('select 1 from brands where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  list(tenantId: number, paging: Paging): Promise<Page<Brand>> {
    return pagedList(this.db, 'brands', COLUMNS, tenantId, paging);
  }

  /** Distinct brands of the items in a category and all its subcategories. */
  async listByCategory(tenantId: number, categoryId: number, paging: Paging): Promise<Page<Brand>> {
    const [category] = await this.db.query(
      'select 1 from categories where tenant_id = $1 and id = $2',
      [tenantId, categoryId],
    );
    if (!category) throw catalogErrors.unknownCategory(categoryId);
    // The category and its descendants, as deep as a tree may be (category-depth.ts).
    const used = `with used as (
        select distinct i.brand_id from items i
         where i.tenant_id = $1 and i.brand_id is not null and i.category_id in (${subtreeSql('$2')}))`;
    const [rows, [total]] = await Promise.all([
      this.db.query<Brand>(
        `${used} select b.id as "Id", b.name as "Name" from brands b join used u on u.brand_id = b.id
          where b.tenant_id = $1 order by b.id offset $3 limit $4`,
        [tenantId, categoryId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(`${used} select count(*)::int as n from used`, [
        tenantId,
        categoryId,
      ]),
    ]);
    return { Results: rows, TotalCount: total?.n ?? 0 };
  }

  async update(
    tenantId: number,
    id: number,
    body: BrandBody,
    checkVersion: VersionCheck,
  ): Promise<Versioned<Brand>> {
    assertBodyIdMatches(body.Id, id);
    return translatingConstraints(
      () => updateVersioned(this.db, TABLE, tenantId, id, 'name = $3', [body.Name], checkVersion),
      { unique: () => catalogErrors.duplicateBrandName(body.Name) },
    );
  }

  /**
   * Restores the brand's name to a version of its history (`versionOf` reads it in this
   * transaction, after the brand is locked and If-Match checked).
   */
  async restore(
    tenantId: number,
    id: number,
    checkVersion: VersionCheck,
    versionOf: (sql: RawSql) => Promise<unknown>,
  ): Promise<Versioned<Brand>> {
    let name = '';
    return translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await lockForWrite(sql, TABLE.name, tenantId, id, checkVersion, () => TABLE.missing(id));
          name = ((await versionOf(sql)) as Brand).Name;
          const [row] = await sql.query<Brand & { version: number }>(
            `update brands set name = $3, version = version + 1
              where tenant_id = $1 and id = $2 returning ${COLUMNS}, version`,
            [tenantId, id, name],
          );
          return versioned(row!);
        }),
      { unique: () => catalogErrors.duplicateBrandName(name) },
    );
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () => deleteVersioned(this.db, TABLE, tenantId, id, checkVersion),
      { stillReferenced: () => catalogErrors.brandInUse(id) },
    );
  }
}
