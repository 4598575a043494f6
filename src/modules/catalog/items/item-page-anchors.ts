// Pages of items in id order. The page is read as one ordered index range (no sort, no join):
// find the id at position `skip`, then take `take` documents from there. Finding that id at a
// deep offset would walk the whole offset, so for each tenant this instance remembers the id at
// every STRIDE-th position with the `changes` generation it was read at; a deep page starts from
// the anchor below `skip` and walks only the rest. The same statement checks that the
// generation has not moved (no insert or delete since); if it has, the page is read by plain
// offset and the anchors are read again. Pages stay exact whatever other instances write.
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../../../db/connection/database.ts';
import type { Paging } from '../../../domain/paging.ts';

export const ANCHOR_STRIDE = 1000;

interface Anchors {
  generation: string;
  ids: number[];
}

export interface ItemPage {
  /** The page's item documents, in id order. */
  documents: string[];
  total: number;
}

interface PageRow {
  total: number;
  document: string;
}

const toPage = (rows: PageRow[]): ItemPage => ({
  documents: rows.map((r) => r.document),
  total: rows[0]!.total,
});

const COUNTS = (column: string) =>
  `(select ${column} from catalog_item_counts where tenant_id = $1)`;

const BY_OFFSET = `select ${COUNTS('items::int')} as total, i.document from items i
   where i.tenant_id = $1 and i.id >= (select id from items where tenant_id = $1 order by id offset $2 limit 1)
   order by i.id limit $3`;

const FROM_ANCHOR = `select ${COUNTS('items::int')} as total, i.document from items i
   where i.tenant_id = $1 and ${COUNTS('changes')} = $2::bigint
     and i.id >= (select id from items where tenant_id = $1 and id >= $3 order by id offset $4 limit 1)
   order by i.id limit $5`;

const STATE = `select items::int as total, changes::text as generation from catalog_item_counts where tenant_id = $1`;

const READ_ANCHORS = `select changes::text as generation,
    array(select id from (select id, row_number() over (order by id) - 1 as position from items where tenant_id = $1) p
           where position % ${ANCHOR_STRIDE} = 0 order by id) as ids
  from catalog_item_counts where tenant_id = $1`;

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
    const rows = await this.db.prepared<PageRow>('catalog_item_page', BY_OFFSET, [
      tenantId,
      paging.skip,
      paging.take,
    ]);
    if (rows.length > 0) return toPage(rows);
    return { documents: [], total: (await this.state(tenantId))?.total ?? 0 };
  }

  private state(tenantId: number): Promise<{ total: number; generation: string } | undefined> {
    return this.db
      .prepared<{ total: number; generation: string }>('catalog_item_state', STATE, [tenantId])
      .then((r) => r[0]);
  }

  private async pageFromAnchor(tenantId: number, paging: Paging): Promise<ItemPage | undefined> {
    const anchors = this.anchors.get(tenantId);
    if (!anchors || anchors.ids.length === 0) return undefined;
    const k = Math.min(Math.floor(paging.skip / ANCHOR_STRIDE), anchors.ids.length - 1);
    const rows = await this.db.prepared<PageRow>('catalog_item_page_from_anchor', FROM_ANCHOR, [
      tenantId,
      anchors.generation,
      anchors.ids[k],
      paging.skip - k * ANCHOR_STRIDE,
      paging.take,
    ]);
    if (rows.length > 0) return toPage(rows);
    // No rows: past the end, or the generation moved (then the anchors are stale).
    const state = await this.state(tenantId);
    if (state && state.generation === anchors.generation)
      return { documents: [], total: state.total };
    this.anchors.delete(tenantId);
    return undefined;
  }
}
