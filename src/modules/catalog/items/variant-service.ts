// Variant groups. An item is stand-alone (DefaultItemId null), the default item of a group
// (DefaultItemId = its own Id) or a variant (DefaultItemId = the default item's Id); it is in at
// most one group. A group left without variants dissolves: its default item becomes stand-alone.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type { VariantGroup } from './item-schemas.ts';

interface Membership {
  id: number;
  default_item_id: number | null;
  variants: number;
}

/**
 * Locks the items (in id order, so that concurrent calls cannot deadlock) and then reads their
 * group state. The read is a statement of its own on purpose: it sees what transactions that
 * held these locks before committed (a variant added to one of these items meanwhile), where the
 * locking statement's own snapshot would not, and two concurrent calls could nest groups.
 */
async function memberships(
  sql: RawSql,
  tenantId: number,
  ids: number[],
): Promise<Map<number, Membership>> {
  await sql.query(
    'select id from items where tenant_id = $1 and id = any($2::bigint[]) order by id for update',
    [tenantId, ids],
  );
  const rows = await sql.query<Membership>(
    `select i.id, i.default_item_id,
            (select count(*)::int from items v where v.tenant_id = $1 and v.default_item_id = i.id and v.id <> i.id) as variants
       from items i where i.tenant_id = $1 and i.id = any($2::bigint[])`,
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export const isVariant = (m: { id: number; default_item_id: number | null }) =>
  m.default_item_id !== null && m.default_item_id !== m.id;

async function setDefault(
  sql: RawSql,
  tenantId: number,
  ids: number[],
  defaultItemId: number | null,
): Promise<void> {
  await sql.query(
    `update items set default_item_id = $3, version = version + 1, date_modified = now()
      where tenant_id = $1 and id = any($2::bigint[]) and default_item_id is distinct from $3`,
    [tenantId, ids, defaultItemId],
  );
}

/** Makes the default items among `defaultIds` stand-alone when they have no variants left. */
export async function dissolveEmptyGroups(
  sql: RawSql,
  tenantId: number,
  defaultIds: number[],
): Promise<void> {
  if (defaultIds.length === 0) return;
  await sql.query(
    `update items d set default_item_id = null, version = version + 1, date_modified = now()
      where d.tenant_id = $1 and d.id = any($2::bigint[]) and d.default_item_id = d.id
        and not exists (select 1 from items v where v.tenant_id = $1 and v.default_item_id = d.id and v.id <> d.id)`,
    [tenantId, defaultIds],
  );
}

async function groupOf(
  sql: RawSql,
  tenantId: number,
  defaultItemId: number,
): Promise<VariantGroup> {
  const rows = await sql.query<{ id: number }>(
    'select id from items where tenant_id = $1 and default_item_id = $2 and id <> $2 order by id',
    [tenantId, defaultItemId],
  );
  return { DefaultItemId: defaultItemId, VariantIds: rows.map((r) => r.id) };
}

function requireDistinct(defaultItemId: number, ids: number[]): void {
  if (new Set(ids).size !== ids.length) throw invalidField('(body)', 'an item id is given twice');
  if (ids.includes(defaultItemId))
    throw invalidField('(body)', `the default item ${defaultItemId} cannot be its own variant`);
}

export class VariantService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  /** Groups stand-alone items (or items already in this group) under a default item. */
  group(tenantId: number, defaultItemId: number, ids: number[]): Promise<VariantGroup> {
    requireDistinct(defaultItemId, ids);
    return this.db.rawTransaction(async (sql) => {
      await this.join(sql, tenantId, defaultItemId, ids, 'group');
      return groupOf(sql, tenantId, defaultItemId);
    });
  }

  /** Moves variants from their groups into this item's group. */
  move(tenantId: number, defaultItemId: number, ids: number[]): Promise<VariantGroup> {
    requireDistinct(defaultItemId, ids);
    return this.db.rawTransaction(async (sql) => {
      await this.join(sql, tenantId, defaultItemId, ids, 'move');
      return groupOf(sql, tenantId, defaultItemId);
    });
  }

  /** Dissolves the group of a default item: it and its variants become stand-alone. */
  ungroup(tenantId: number, id: number): Promise<void> {
    return this.db.rawTransaction(async (sql) => {
      const item = (await memberships(sql, tenantId, [id])).get(id);
      if (!item) throw catalogErrors.itemNotFound(id);
      if (item.default_item_id !== id) throw catalogErrors.notADefaultItem(id);
      await sql.query(
        `update items set default_item_id = null, version = version + 1, date_modified = now()
          where tenant_id = $1 and default_item_id = $2`,
        [tenantId, id],
      );
    });
  }

  /**
   * Puts `ids` into the group of `defaultItemId` inside the caller's transaction. `group` takes
   * stand-alone items only; `move` takes variants of other groups only. Either way a default
   * item with variants cannot become a variant (ungroup it first).
   */
  async join(
    sql: RawSql,
    tenantId: number,
    defaultItemId: number,
    ids: number[],
    mode: 'group' | 'move',
  ): Promise<void> {
    const all = await memberships(sql, tenantId, [defaultItemId, ...ids]);
    const target = all.get(defaultItemId);
    if (!target) throw catalogErrors.itemNotFound(defaultItemId);
    if (isVariant(target)) throw catalogErrors.isVariantOf(defaultItemId, target.default_item_id);
    const sourceGroups = new Set<number>();
    for (const id of ids) {
      const item = all.get(id);
      if (!item) throw catalogErrors.itemNotFound(id);
      if (item.default_item_id === defaultItemId) continue;
      if (item.default_item_id === id && item.variants > 0) throw catalogErrors.isDefaultItem(id);
      if (mode === 'group' && isVariant(item))
        throw catalogErrors.alreadyGrouped(id, item.default_item_id);
      if (mode === 'move' && !isVariant(item)) throw catalogErrors.notAVariant(id);
      if (isVariant(item)) sourceGroups.add(item.default_item_id!);
    }
    await setDefault(sql, tenantId, [defaultItemId, ...ids], defaultItemId);
    await dissolveEmptyGroups(sql, tenantId, [...sourceGroups]);
  }

  /** Applies an item's DefaultItemId as sent in a create or update body. */
  async assign(
    sql: RawSql,
    tenantId: number,
    itemId: number,
    defaultItemId: number | null,
  ): Promise<void> {
    const item = (await memberships(sql, tenantId, [itemId])).get(itemId)!;
    if (defaultItemId === item.default_item_id) return;
    if (defaultItemId === null || defaultItemId === itemId) {
      if (item.default_item_id === itemId && item.variants > 0)
        throw catalogErrors.isDefaultItem(itemId);
      const previousGroup = item.default_item_id;
      await setDefault(sql, tenantId, [itemId], defaultItemId);
      if (previousGroup !== null) await dissolveEmptyGroups(sql, tenantId, [previousGroup]);
      return;
    }
    const [target] = await sql.query('select 1 from items where tenant_id = $1 and id = $2', [
      tenantId,
      defaultItemId,
    ]);
    if (!target) throw catalogErrors.unknownReference('DefaultItemId', `item ${defaultItemId}`);
    await this.join(sql, tenantId, defaultItemId, [itemId], isVariant(item) ? 'move' : 'group');
  }
}
