// Tags and the item–tag mappings.
import type { DatabaseHandle } from '../../../db/database.ts';
import { ApiError, conflict, notFound } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { assertBodyIdMatches } from '../../../http/body-id.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { translatingConstraints } from '../../../http/constraint-errors.ts';
import type { ItemTagMapping, Tag, TagBody } from './tag-schemas.ts';

const COLUMNS = 'id as "Id", name as "Name", description as "Description"';
const duplicate = (name: string) => () =>
  conflict('DuplicateTagName', `A tag named "${name}" already exists.`);

export class TagService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: TagBody): Promise<Tag> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Tag>(
          `insert into tags (tenant_id, name, description) values ($1, $2, $3) returning ${COLUMNS}`,
          [tenantId, body.Name, body.Description ?? null],
        ),
      { unique: duplicate(body.Name) },
    );
    return row!;
  }

  async get(tenantId: number, id: number): Promise<Tag> {
    const [row] = await this.db.query<Tag>(
      `select ${COLUMNS} from tags where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Tag ${id}`);
    return row;
  }

  list(tenantId: number, paging: Paging): Promise<Page<Tag>> {
    return pagedList(this.db, 'tags', COLUMNS, tenantId, paging);
  }

  async update(tenantId: number, id: number, body: TagBody): Promise<Tag> {
    assertBodyIdMatches(body.Id, id);
    const [row] = await translatingConstraints(
      () =>
        this.db.query<Tag>(
          `update tags set name = $3, description = $4 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
          [tenantId, id, body.Name, body.Description ?? null],
        ),
      { unique: duplicate(body.Name) },
    );
    if (!row) throw notFound(`Tag ${id}`);
    return row;
  }

  async delete(tenantId: number, id: number): Promise<void> {
    const deleted = await translatingConstraints(
      () =>
        this.db.query('delete from tags where tenant_id = $1 and id = $2 returning id', [
          tenantId,
          id,
        ]),
      {
        stillReferenced: () =>
          conflict('TagInUse', `Tag ${id} is mapped to items; remove those mappings first.`),
      },
    );
    if (deleted.length === 0) throw notFound(`Tag ${id}`);
  }

  /** Maps a tag to an item: 404 for an unknown item or tag, 409 when already mapped (as the v4 system). */
  async map(tenantId: number, mapping: ItemTagMapping): Promise<ItemTagMapping> {
    const [found] = await this.db.query<{ item: boolean; tag: boolean }>(
      `select exists (select 1 from items where tenant_id = $1 and id = $2) as item,
              exists (select 1 from tags where tenant_id = $1 and id = $3) as tag`,
      [tenantId, mapping.ItemId, mapping.TagId],
    );
    if (!found?.item) throw notFound(`Item ${mapping.ItemId}`);
    if (!found.tag) throw notFound(`Tag ${mapping.TagId}`);
    const inserted = await translatingConstraints(
      () =>
        this.db.query(
          'insert into item_tags (tenant_id, item_id, tag_id) values ($1, $2, $3) on conflict do nothing returning item_id',
          [tenantId, mapping.ItemId, mapping.TagId],
        ),
      // The item or tag was deleted between the check and the insert.
      { missingReference: () => notFound(`Item ${mapping.ItemId} or tag ${mapping.TagId}`) },
    );
    if (inserted.length === 0)
      throw conflict(
        'DuplicateItemTagMapping',
        `Item ${mapping.ItemId} already has tag ${mapping.TagId}.`,
      );
    return { ItemId: mapping.ItemId, TagId: mapping.TagId };
  }

  async mappings(
    tenantId: number,
    filter: { itemId?: number; tagId?: number },
  ): Promise<ItemTagMapping[]> {
    if ((filter.itemId === undefined) === (filter.tagId === undefined)) {
      throw new ApiError(400, 'ValidationFailed', 'Give exactly one of itemId and tagId.', {
        errors: [{ Field: 'itemId', Message: 'exactly one of itemId and tagId is required' }],
      });
    }
    const byItem = filter.itemId !== undefined;
    return this.db.query<ItemTagMapping>(
      `select item_id as "ItemId", tag_id as "TagId" from item_tags
        where tenant_id = $1 and ${byItem ? 'item_id' : 'tag_id'} = $2 order by item_id, tag_id`,
      [tenantId, byItem ? filter.itemId : filter.tagId],
    );
  }

  async unmap(tenantId: number, itemId: number, tagId: number): Promise<void> {
    const deleted = await this.db.query(
      'delete from item_tags where tenant_id = $1 and item_id = $2 and tag_id = $3 returning item_id',
      [tenantId, itemId, tagId],
    );
    if (deleted.length === 0) throw notFound(`A mapping of item ${itemId} to tag ${tagId}`);
  }
}
