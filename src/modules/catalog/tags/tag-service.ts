// Tags and the item–tag mappings.
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import { pagedList } from '../../../db/queries/paged-list.ts';
import { versioned, type Versioned } from '../../../db/queries/row-version.ts';
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
import type { ItemTagMapping, Tag, TagBody } from './tag-schemas.ts';

const COLUMNS = 'id as "Id", name as "Name", description as "Description"';
const TABLE = { name: 'tags', columns: COLUMNS, missing: catalogErrors.tagNotFound };

export class TagService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: TagBody): Promise<Versioned<Tag>> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Tag & { version: number }>(
          `insert into tags (tenant_id, name, description) values ($1, $2, $3) returning ${COLUMNS}, version`,
          [tenantId, body.Name, body.Description ?? null],
        ),
      { unique: () => catalogErrors.duplicateTagName(body.Name) },
    );
    return versioned(row!);
  }

  get(tenantId: number, id: number): Promise<Versioned<Tag>> {
    return fetchVersioned(this.db, TABLE, tenantId, id);
  }

  list(tenantId: number, paging: Paging): Promise<Page<Tag>> {
    return pagedList(this.db, 'tags', COLUMNS, tenantId, paging);
  }

  async update(
    tenantId: number,
    id: number,
    body: TagBody,
    checkVersion: VersionCheck,
  ): Promise<Versioned<Tag>> {
    assertBodyIdMatches(body.Id, id);
    return translatingConstraints(
      () =>
        updateVersioned(
          this.db,
          TABLE,
          tenantId,
          id,
          'name = $3, description = $4',
          [body.Name, body.Description ?? null],
          checkVersion,
        ),
      { unique: () => catalogErrors.duplicateTagName(body.Name) },
    );
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () => deleteVersioned(this.db, TABLE, tenantId, id, checkVersion),
      { stillReferenced: () => catalogErrors.tagInUse(id) },
    );
  }

  /** Maps a tag to an item: 404 for an unknown item or tag, 409 when already mapped (as the v4 system). */
  async map(tenantId: number, mapping: ItemTagMapping): Promise<ItemTagMapping> {
    const [found] = await this.db.query<{ item: boolean; tag: boolean }>(
      `select exists (select 1 from items where tenant_id = $1 and id = $2) as item,
              exists (select 1 from tags where tenant_id = $1 and id = $3) as tag`,
      [tenantId, mapping.ItemId, mapping.TagId],
    );
    if (!found?.item) throw catalogErrors.itemNotFound(mapping.ItemId);
    if (!found.tag) throw catalogErrors.tagNotFound(mapping.TagId);
    const inserted = await translatingConstraints(
      () =>
        this.db.query(
          'insert into item_tags (tenant_id, item_id, tag_id) values ($1, $2, $3) on conflict do nothing returning item_id',
          [tenantId, mapping.ItemId, mapping.TagId],
        ),
      // The item or tag was deleted between the check and the insert.
      { missingReference: () => catalogErrors.itemOrTagNotFound(mapping.ItemId, mapping.TagId) },
    );
    if (inserted.length === 0)
      throw catalogErrors.duplicateItemTagMapping(mapping.ItemId, mapping.TagId);
    return { ItemId: mapping.ItemId, TagId: mapping.TagId };
  }

  /** The mappings of one item or of one tag, a page at a time. */
  async mappings(
    tenantId: number,
    filter: { itemId?: number | undefined; tagId?: number | undefined },
    paging: Paging,
  ): Promise<Page<ItemTagMapping>> {
    if ((filter.itemId === undefined) === (filter.tagId === undefined))
      throw catalogErrors.oneMappingFilter();
    const byItem = filter.itemId !== undefined;
    const where = `tenant_id = $1 and ${byItem ? 'item_id' : 'tag_id'} = $2`;
    const key = byItem ? filter.itemId : filter.tagId;
    const [rows, [total]] = await Promise.all([
      this.db.query<ItemTagMapping>(
        `select item_id as "ItemId", tag_id as "TagId" from item_tags
          where ${where} order by item_id, tag_id offset $3 limit $4`,
        [tenantId, key, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(`select count(*)::int as n from item_tags where ${where}`, [
        tenantId,
        key,
      ]),
    ]);
    return { Results: rows, TotalCount: total?.n ?? 0 };
  }

  async unmap(tenantId: number, itemId: number, tagId: number): Promise<void> {
    const deleted = await this.db.query(
      'delete from item_tags where tenant_id = $1 and item_id = $2 and tag_id = $3 returning item_id',
      [tenantId, itemId, tagId],
    );
    if (deleted.length === 0) throw catalogErrors.mappingNotFound(itemId, tagId);
  }
}
