// Categories named by path (CategoryPath: the names from the root down), for one chunk of an
// import: the chunk's paths are merged into one tree of names and looked up a level at a time,
// each child among its parent's children by name (case-insensitively, as names are matched
// everywhere), one query per level for the whole chunk; missing ones are created the same way
// when the import creates what is missing, with the descriptions a Category record gives.
import type { RawSql } from '../../../db/connection/database.ts';
import { CATEGORY_LOCK } from '../catalog-name-rules.ts';
import { CREATE_MISSING_ADVICE } from './import-problem-words.ts';
import type { Resolution } from './import-references.ts';

interface Node {
  name: string;
  key: string;
  parent: Node | undefined;
  children: Map<string, Node>;
  /** The categories found at this place (several: siblings of one name). */
  ids: number[];
  shortDescription: string | null;
  longDescription: string | null;
}

export interface CategoryDetails {
  shortDescription?: string | null;
  longDescription?: string | null;
}

const label = (node: Node): string =>
  node.parent ? `${label(node.parent)} / ${node.name}` : node.name;

export class CategoryTree {
  private readonly roots = new Map<string, Node>();
  /** Whether this chunk's transaction holds the category lock. */
  private locked = false;

  /** Adds a path (and the descriptions its category is created with when missing). */
  add(path: readonly string[], details: CategoryDetails = {}): void {
    let siblings = this.roots;
    let node: Node | undefined;
    for (const name of path) {
      const key = name.toLowerCase();
      let next = siblings.get(key);
      if (!next) {
        next = {
          name,
          key,
          parent: node,
          children: new Map(),
          ids: [],
          shortDescription: null,
          longDescription: null,
        };
        siblings.set(key, next);
      }
      node = next;
      siblings = next.children;
    }
    if (!node) return;
    node.shortDescription ??= details.shortDescription ?? null;
    node.longDescription ??= details.longDescription ?? null;
  }

  /** Looks every path up, a level at a time; creates missing categories first when `create`. */
  async load(sql: RawSql, tenantId: number, create: boolean): Promise<void> {
    let level = [...this.roots.values()];
    while (level.length > 0) {
      // A child is looked for under a parent found once; under a missing or ambiguous parent
      // it is missing too (and created only under a parent that is one category).
      const open = level.filter((n) => !n.parent || n.parent.ids.length === 1);
      await this.lookUp(sql, tenantId, open);
      const missing = open.filter((n) => n.ids.length === 0);
      if (create && missing.length > 0) {
        // Sibling names are unique (catalog-name-rules.ts): their writers take turns, and one may
        // have created some of these since the lookup.
        if (!this.locked) await sql.query(CATEGORY_LOCK, [tenantId]);
        this.locked = true;
        await this.lookUp(sql, tenantId, missing);
        await this.create(
          sql,
          tenantId,
          missing.filter((n) => n.ids.length === 0),
        );
      }
      level = level.flatMap((n) => [...n.children.values()]);
    }
  }

  private async lookUp(sql: RawSql, tenantId: number, nodes: Node[]): Promise<void> {
    if (nodes.length === 0) return;
    // One index lookup (tenant_id, parent_id) per place: the planner's own plan on a new
    // tenant's stale statistics could read all the tenant's categories. A level is all roots
    // or all children ("is not distinct from" is no index condition). Names are folded by the
    // database on both sides, as the other references are matched.
    const names = nodes.map((n) => n.name);
    const rows = nodes[0]!.parent
      ? await sql.query<{ id: number; o: string | number }>(
          `select c.id, x.o from unnest($2::bigint[], $3::text[]) with ordinality as x(p, n, o)
            cross join lateral (select id from categories
                                 where tenant_id = $1 and parent_id = x.p and lower(name) = lower(x.n)) c
            order by c.id`,
          [tenantId, nodes.map((n) => n.parent!.ids[0]!), names],
        )
      : await sql.query<{ id: number; o: string | number }>(
          `select c.id, x.o from unnest($2::text[]) with ordinality as x(n, o)
            cross join lateral (select id from categories
                                 where tenant_id = $1 and parent_id is null and lower(name) = lower(x.n)) c
            order by c.id`,
          [tenantId, names],
        );
    for (const row of rows) nodes[Number(row.o) - 1]!.ids.push(row.id);
  }

  private async create(sql: RawSql, tenantId: number, nodes: Node[]): Promise<void> {
    if (nodes.length === 0) return;
    const parents = nodes.map((n) => n.parent?.ids[0] ?? 0);
    const rows = await sql.query<{ id: number; parent: number; name: string }>(
      `insert into categories (tenant_id, name, parent_id, short_description, long_description)
       select $1, n, nullif(p, 0), s, l from unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) as x(n, p, s, l)
       returning id, coalesce(parent_id, 0) as parent, name`,
      [
        tenantId,
        nodes.map((n) => n.name),
        parents,
        nodes.map((n) => n.shortDescription),
        nodes.map((n) => n.longDescription),
      ],
    );
    // A place (parent, name as written) is one node: the tree keeps one node per folded name.
    const byPlace = new Map(nodes.map((n, i) => [`${parents[i]}\u0000${n.name}`, n]));
    for (const row of rows) byPlace.get(`${row.parent}\u0000${row.name}`)!.ids.push(row.id);
  }

  /** The category at `path`. `wouldCreate`: a missing one is fine (a validation pass); id 0. */
  resolve(path: readonly string[], wouldCreate: boolean): Resolution {
    let siblings = this.roots;
    let node: Node | undefined;
    for (const name of path) {
      node = siblings.get(name.toLowerCase())!;
      if (node.ids.length > 1)
        return {
          problem: `The catalog has ${node.ids.length} categories at "${label(node)}" (one parent, one name). Give the CategoryId of the one you mean instead.`,
        };
      if (node.ids.length === 0)
        return wouldCreate
          ? { id: 0 }
          : {
              problem: `The catalog has no category "${label(node)}". ${CREATE_MISSING_ADVICE}`,
            };
      siblings = node.children;
    }
    return { id: node!.ids[0]! };
  }
}
