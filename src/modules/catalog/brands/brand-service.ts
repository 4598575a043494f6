// Brands, and the distinct brands of the items in a category subtree.
import type { DatabaseHandle } from '../../../db/database.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../sql-errors.ts';
import type { Brand, BrandBody } from './brand-schemas.ts';

const COLUMNS = 'id as "Id", name as "Name"';
const duplicate = (name: string) =>
  conflict('DuplicateBrandName', `A brand named "${name}" already exists.`);

export class BrandService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: BrandBody): Promise<Brand> {
    try {
      const [row] = await this.db.query<Brand>(
        `insert into brands (tenant_id, name) values ($1, $2) returning ${COLUMNS}`,
        [tenantId, body.Name],
      );
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate(body.Name);
      throw error;
    }
  }

  async get(tenantId: number, id: number): Promise<Brand> {
    const [row] = await this.db.query<Brand>(
      `select ${COLUMNS} from brands where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Brand ${id}`);
    return row;
  }

  async list(tenantId: number, paging: Paging): Promise<Page<Brand>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<Brand>(
        `select ${COLUMNS} from brands where tenant_id = $1 order by id offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>('select count(*)::int as n from brands where tenant_id = $1', [
        tenantId,
      ]),
    ]);
    return { Results: rows, TotalCount: total?.n ?? 0 };
  }

  /** Distinct brands of the items in a category and all its subcategories. */
  async listByCategory(tenantId: number, categoryId: number, paging: Paging): Promise<Page<Brand>> {
    const [category] = await this.db.query(
      'select 1 from categories where tenant_id = $1 and id = $2',
      [tenantId, categoryId],
    );
    if (!category) throw badRequest('UnknownCategory', `Category ${categoryId} does not exist.`);
    const rows = await this.db.query<Brand & { total: number }>(
      `with recursive subtree as (
         select id from categories where tenant_id = $1 and id = $2
         union all
         select c.id from categories c join subtree s on c.parent_id = s.id where c.tenant_id = $1
       ), used as (
         select distinct i.brand_id from items i join subtree s on i.category_id = s.id
          where i.tenant_id = $1 and i.brand_id is not null
       )
       select b.id as "Id", b.name as "Name", count(*) over ()::int as total
         from brands b join used u on u.brand_id = b.id
        where b.tenant_id = $1
        order by b.id offset $3 limit $4`,
      [tenantId, categoryId, paging.skip, paging.take],
    );
    const total =
      rows[0]?.total ?? (paging.skip > 0 ? await this.countByCategory(tenantId, categoryId) : 0);
    return { Results: rows.map(({ Id, Name }) => ({ Id, Name })), TotalCount: total };
  }

  private async countByCategory(tenantId: number, categoryId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `with recursive subtree as (
         select id from categories where tenant_id = $1 and id = $2
         union all
         select c.id from categories c join subtree s on c.parent_id = s.id where c.tenant_id = $1
       )
       select count(distinct i.brand_id)::int as n from items i join subtree s on i.category_id = s.id
        where i.tenant_id = $1 and i.brand_id is not null`,
      [tenantId, categoryId],
    );
    return row?.n ?? 0;
  }

  async update(tenantId: number, id: number, body: BrandBody): Promise<Brand> {
    if (body.Id !== undefined && body.Id !== id)
      throw badRequest('IdMismatch', `The body's Id ${body.Id} differs from the path's ${id}.`);
    try {
      const [row] = await this.db.query<Brand>(
        `update brands set name = $3 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
        [tenantId, id, body.Name],
      );
      if (!row) throw notFound(`Brand ${id}`);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate(body.Name);
      throw error;
    }
  }

  async delete(tenantId: number, id: number): Promise<void> {
    try {
      const deleted = await this.db.query(
        'delete from brands where tenant_id = $1 and id = $2 returning id',
        [tenantId, id],
      );
      if (deleted.length === 0) throw notFound(`Brand ${id}`);
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict('BrandInUse', `Brand ${id} is used by items; change those items first.`);
      throw error;
    }
  }
}
