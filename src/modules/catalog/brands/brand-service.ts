// Brands, and the distinct brands of the items in a category subtree.
import type { DatabaseHandle } from '../../../db/database.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { assertBodyIdMatches } from '../../../http/body-id.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { translatingConstraints } from '../../../http/constraint-errors.ts';
import type { Brand, BrandBody } from './brand-schemas.ts';

const COLUMNS = 'id as "Id", name as "Name"';
const duplicate = (name: string) => () =>
  conflict('DuplicateBrandName', `A brand named "${name}" already exists.`);

// The category and all its descendants.
const SUBTREE = `with recursive subtree as (
    select id from categories where tenant_id = $1 and id = $2
    union all
    select c.id from categories c join subtree s on c.parent_id = s.id where c.tenant_id = $1)`;

export class BrandService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: BrandBody): Promise<Brand> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Brand>(
          `insert into brands (tenant_id, name) values ($1, $2) returning ${COLUMNS}`,
          [tenantId, body.Name],
        ),
      { unique: duplicate(body.Name) },
    );
    return row!;
  }

  /** Whether the row exists (the storage module relates assets to it). */
  async exists(tenantId: number, id: number): Promise<boolean> {
    const rows = await this.db.query('select 1 from brands where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  async get(tenantId: number, id: number): Promise<Brand> {
    const [row] = await this.db.query<Brand>(
      `select ${COLUMNS} from brands where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Brand ${id}`);
    return row;
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
    if (!category) throw badRequest('UnknownCategory', `Category ${categoryId} does not exist.`);
    const used = `${SUBTREE}, used as (
        select distinct i.brand_id from items i join subtree s on i.category_id = s.id
         where i.tenant_id = $1 and i.brand_id is not null)`;
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

  async update(tenantId: number, id: number, body: BrandBody): Promise<Brand> {
    assertBodyIdMatches(body.Id, id);
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Brand>(
          `update brands set name = $3 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
          [tenantId, id, body.Name],
        ),
      { unique: duplicate(body.Name) },
    );
    if (!row) throw notFound(`Brand ${id}`);
    return row;
  }

  async delete(tenantId: number, id: number): Promise<void> {
    const deleted = await translatingConstraints(
      () =>
        this.db.query('delete from brands where tenant_id = $1 and id = $2 returning id', [
          tenantId,
          id,
        ]),
      {
        stillReferenced: () =>
          conflict('BrandInUse', `Brand ${id} is used by items; change those items first.`),
      },
    );
    if (deleted.length === 0) throw notFound(`Brand ${id}`);
  }
}
