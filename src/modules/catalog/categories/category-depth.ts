// How deep a category tree may grow, and the bounded walks that keep it so (issue 46). A chain of
// 5,000 categories made a search of its root take 15 s on the embedded engine (each level of the
// recursive walk read the whole table: depth squared) and its tree answer fail at about 8,000
// levels. commercetools and Shopify keep category trees a handful of levels deep; so does this
// API: a root is at depth 1, and no category is deeper than MAX_CATEGORY_DEPTH (create, move
// and import refuse with 400 CategoryTooDeep). Every walk over the tree stops after that many
// levels, so a tree made deeper before the limit costs no more than one at it.
import type { RawSql } from '../../../db/connection/database.ts';
import { invalid } from '../../../domain/domain-error.ts';

export const MAX_CATEGORY_DEPTH = 10;

export const categoryTooDeep = (field: string, depth: number) => {
  const message = `would put a category at level ${depth}; a category tree is at most ${MAX_CATEGORY_DEPTH} levels deep (a root is at level 1).`;
  return invalid('CategoryTooDeep', `${field} ${message}`, [{ Field: field, Message: message }]);
};

/**
 * The ancestors of `id` (itself first), climbing by primary key, at most MAX_CATEGORY_DEPTH + 1 of
 * them: `depth` is the category's depth (more than MAX_CATEGORY_DEPTH when it is deeper, however
 * deep), `hasAncestor` whether `ancestorId` is among them.
 */
export async function climb(
  sql: RawSql,
  tenantId: number,
  id: number,
  ancestorId = 0,
): Promise<{ depth: number; hasAncestor: boolean }> {
  const [row] = await sql.query<{ depth: number; has_ancestor: boolean }>(
    `with recursive up (id, parent_id, depth) as (
       select id, parent_id, 1 from categories where tenant_id = $1 and id = $2
       union all
       select c.id, c.parent_id, up.depth + 1 from up
         join categories c on c.tenant_id = $1 and c.id = up.parent_id
        where up.depth <= ${MAX_CATEGORY_DEPTH})
     select coalesce(max(depth), 0)::int as depth, coalesce(bool_or(id = $3), false) as has_ancestor from up`,
    [tenantId, id, ancestorId],
  );
  return { depth: row?.depth ?? 0, hasAncestor: row?.has_ancestor ?? false };
}

/** The levels of the subtree under `id` (1: no children), counted to MAX_CATEGORY_DEPTH + 1. */
export async function subtreeHeight(sql: RawSql, tenantId: number, id: number): Promise<number> {
  const [row] = await sql.query<{ height: number }>(
    `with recursive down (id, depth) as (
       select id, 1 from categories where tenant_id = $1 and id = $2
       union all
       select c.id, down.depth + 1 from down
         join categories c on c.tenant_id = $1 and c.parent_id = down.id
        where down.depth <= ${MAX_CATEGORY_DEPTH})
     select coalesce(max(depth), 0)::int as height from down`,
    [tenantId, id],
  );
  return row?.height ?? 0;
}

/**
 * SQL for the ids of category `idParam` and its descendants, MAX_CATEGORY_DEPTH levels of them
 * (a tree made deeper before the limit is read to it). `$1` is the tenant.
 */
export const subtreeSql = (idParam: string) => `with recursive tree (id, depth) as (
     select id, 1 from categories where tenant_id = $1 and id = ${idParam}
     union all select k.id, tree.depth + 1 from categories k join tree on k.tenant_id = $1 and k.parent_id = tree.id
      where tree.depth < ${MAX_CATEGORY_DEPTH})
   select id from tree`;
