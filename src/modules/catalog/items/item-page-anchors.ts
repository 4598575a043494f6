// Deep pages without walking the whole offset. For each tenant this instance remembers the id
// at every STRIDE-th position of the id order, with the `changes` generation it was read at.
// A page at skip S starts from the anchor below S and skips only the rest; the same statement
// checks that the generation has not moved (no insert or delete since), or answers nothing and
// the caller falls back to a plain offset. Reads stay exact whatever other instances write.
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Paging } from '../../../http/paging.ts';
import { itemArray } from './item-queries.ts';

export const ANCHOR_STRIDE = 1000;

interface Anchors {
  generation: string;
  ids: number[];
}

export interface ItemPage {
  json: string;
  total: number;
}

const COUNTS = 'from catalog_item_counts c where c.tenant_id = $1';

const FROM_ANCHOR = `select c.items::int as total,
    case when c.changes = $2::bigint then (${itemArray(
      'i.tenant_id = $1 and i.id in (select id from items where tenant_id = $1 and id >= $3 order by id offset $4 limit $5)',
    )}) end as json
  ${COUNTS}`;

const BY_OFFSET = `select c.items::int as total, (${itemArray(
  'i.tenant_id = $1 and i.id in (select id from items where tenant_id = $1 order by id offset $2 limit $3)',
)}) as json
  ${COUNTS}`;

const READ_ANCHORS = `select c.changes::text as generation,
    array(select id from (select id, row_number() over (order by id) - 1 as position from items where tenant_id = $1) p
           where position % ${ANCHOR_STRIDE} = 0 order by id) as ids
  ${COUNTS}`;

export class ItemPageAnchors {
  private readonly db: DatabaseHandle;
  private readonly anchors = new LRUCache<number, Anchors>({ max: 1000 });

  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async page(tenantId: number, paging: Paging): Promise<ItemPage> {
    if (paging.skip >= ANCHOR_STRIDE) {
      const fromAnchor = await this.pageFromAnchor(tenantId, paging);
      if (fromAnchor) return fromAnchor;
      // Remember the positions for the next deep pages (one index scan of the tenant's ids).
      const [anchors] = await this.db.query<Anchors>(READ_ANCHORS, [tenantId]);
      if (anchors) this.anchors.set(tenantId, anchors);
    }
    const [row] = await this.db.prepared<{ total: number; json: string }>(
      'catalog_item_page',
      BY_OFFSET,
      [tenantId, paging.skip, paging.take],
    );
    return row ?? { json: '[]', total: 0 };
  }

  private async pageFromAnchor(tenantId: number, paging: Paging): Promise<ItemPage | undefined> {
    const anchors = this.anchors.get(tenantId);
    if (!anchors || anchors.ids.length === 0) return undefined;
    const k = Math.min(Math.floor(paging.skip / ANCHOR_STRIDE), anchors.ids.length - 1);
    const [row] = await this.db.prepared<{ total: number; json: string | null }>(
      'catalog_item_page_from_anchor',
      FROM_ANCHOR,
      [tenantId, anchors.generation, anchors.ids[k], paging.skip - k * ANCHOR_STRIDE, paging.take],
    );
    if (!row || row.json === null) {
      this.anchors.delete(tenantId);
      return undefined;
    }
    return { json: row.json, total: row.total };
  }
}
