// Categories: a tree per tenant (no cycles), with key/value metadata.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { lockedVersion, versioned, type Versioned } from '../../../db/queries/row-version.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import { catalogErrors } from '../catalog-errors.ts';
import {
  categoryTooDeep,
  climb,
  MAX_CATEGORY_DEPTH,
  subtreeHeight,
  subtreeSql,
} from './category-depth.ts';
import { refuseMissingParent, replaceMetadata } from './category-restore.ts';
import { CATEGORY_LOCK, categoryNameTaken, sameName } from '../catalog-name-rules.ts';
import type {
  Category,
  CategoryBody,
  CategoryMetadataBody,
  CategoryPatch,
  CategoryTreeNode,
} from './category-schemas.ts';

// $1 is the tenant: written in each subquery too, so that Citus sends the whole statement to the
// tenant's shards (a subquery that only matches c.tenant_id would go to every shard).
const SELECT_CATEGORY = `
  select c.id as "Id", c.name as "Name", c.short_description as "ShortDescription",
         c.long_description as "LongDescription", c.parent_id as "ParentCategoryId", p.name as "ParentCategoryName",
         (select count(*)::int from categories s where s.tenant_id = $1 and s.parent_id = c.id) as "SubCategoryCount",
         coalesce((select json_agg(json_build_object('Key', m.key, 'Value', m.value) order by m.key)
                     from category_metadata m where m.tenant_id = $1 and m.category_id = c.id), '[]') as "CategoryMetadata",
         c.version
    from categories c
    left join categories p on p.tenant_id = c.tenant_id and p.id = c.parent_id`;

/** A refusal to delete counts what is in the way up to this many. */
const REFUSAL_COUNT_LIMIT = 100_000;
export class CategoryService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async get(tenantId: number, id: number, sql: RawSql = this.db): Promise<Versioned<Category>> {
    const [row] = await sql.query<Category & { version: number }>(
      `${SELECT_CATEGORY} where c.tenant_id = $1 and c.id = $2`,
      [tenantId, id],
    );
    if (!row) throw catalogErrors.categoryNotFound(id);
    return versioned(row);
  }

  /** Whether the category exists (the catalog's asset relations check it before relating an asset). */
  async exists(tenantId: number, id: number): Promise<boolean> {
    const rows = await this.db.query('select 1 from categories where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  async create(tenantId: number, body: CategoryBody): Promise<Versioned<Category>> {
    return this.db.rawTransaction(async (sql) => {
      // Creates and moves of the tenant take turns (catalog-name-rules.ts): sibling names.
      await sql.query(CATEGORY_LOCK, [tenantId]);
      const parentId = body.ParentCategoryId ?? null;
      if (parentId !== null) {
        await this.requireParent(sql, tenantId, parentId);
        const { depth } = await climb(sql, tenantId, parentId);
        if (depth + 1 > MAX_CATEGORY_DEPTH) throw categoryTooDeep('ParentCategoryId', depth + 1);
      }
      await this.refuseDuplicateName(sql, tenantId, parentId, body.Name);
      const [row] = await sql.query<{ id: number }>(
        `insert into categories (tenant_id, name, short_description, long_description, parent_id)
         values ($1, $2, $3, $4, $5) returning id`,
        [
          tenantId,
          body.Name,
          body.ShortDescription ?? null,
          body.LongDescription ?? null,
          body.ParentCategoryId ?? null,
        ],
      );
      return this.get(tenantId, row!.id, sql);
    });
  }

  /** Full update (PUT) or partial update (PATCH: only the fields present change). */
  async update(
    tenantId: number,
    id: number,
    body: CategoryBody | CategoryPatch,
    checkVersion: VersionCheck,
    partial: boolean,
  ): Promise<Versioned<Category>> {
    assertBodyIdMatches(body.Id, id);
    return this.db.rawTransaction((sql) =>
      this.updateIn(sql, tenantId, id, body, checkVersion, partial),
    );
  }

  /**
   * Restores the category to a version of its history (`versionOf` reads it in this
   * transaction, after the category is locked and If-Match checked): its name, descriptions,
   * parent and metadata, with the rules of an update (409 CategoryCycle, DuplicateCategoryName).
   */
  async restore(
    tenantId: number,
    id: number,
    checkVersion: VersionCheck,
    versionOf: (sql: RawSql) => Promise<unknown>,
  ): Promise<Versioned<Category>> {
    return this.db.rawTransaction(async (sql) => {
      await sql.query(CATEGORY_LOCK, [tenantId]);
      const version = await lockedVersion(sql, 'categories', tenantId, id);
      if (version === undefined) throw catalogErrors.categoryNotFound(id);
      checkVersion(version);
      const restored = (await versionOf(sql)) as Category;
      const parentId = restored.ParentCategoryId;
      await refuseMissingParent(sql, tenantId, parentId);
      // The metadata first: the category's own update comes last, so that its entry in the
      // history shows the metadata restored.
      await replaceMetadata(sql, tenantId, id, restored.CategoryMetadata);
      const body = {
        Name: restored.Name,
        ShortDescription: restored.ShortDescription,
        LongDescription: restored.LongDescription,
        ParentCategoryId: parentId,
      };
      return this.updateIn(sql, tenantId, id, body, () => undefined, false);
    });
  }

  private async updateIn(
    sql: RawSql,
    tenantId: number,
    id: number,
    body: CategoryBody | CategoryPatch,
    checkVersion: VersionCheck,
    partial: boolean,
  ): Promise<Versioned<Category>> {
    // Moves take turns so that two cannot close a cycle, and renames so that two cannot give
    // siblings one name (catalog-name-rules.ts).
    await sql.query(CATEGORY_LOCK, [tenantId]);
    const [current] = await sql.query<{
      name: string;
      short_description: string | null;
      long_description: string | null;
      parent_id: number | null;
      version: number;
    }>(
      'select name, short_description, long_description, parent_id, version from categories where tenant_id = $1 and id = $2 for update',
      [tenantId, id],
    );
    if (!current) throw catalogErrors.categoryNotFound(id);
    checkVersion(current.version);
    const keep = (key: keyof CategoryPatch) => partial && !(key in body);
    const next = {
      name: keep('Name') ? current.name : (body.Name ?? null),
      shortDescription: keep('ShortDescription')
        ? current.short_description
        : (body.ShortDescription ?? null),
      longDescription: keep('LongDescription')
        ? current.long_description
        : (body.LongDescription ?? null),
      parentId: keep('ParentCategoryId') ? current.parent_id : (body.ParentCategoryId ?? null),
    };
    if (next.name === null) throw invalidField('Name', 'is required');
    if (next.parentId !== null && next.parentId !== current.parent_id) {
      await this.requireParent(sql, tenantId, next.parentId);
      await this.refuseCycleOrDepth(sql, tenantId, id, next.parentId);
    }
    // A name already shared with a sibling (from before the rule) may stay where it is; a
    // rename or a move must not make one.
    const moved = next.parentId !== current.parent_id;
    if (moved || (next.name !== current.name && !(await sameName(sql, next.name, current.name))))
      await this.refuseDuplicateName(sql, tenantId, next.parentId, next.name, id);
    await sql.query(
      `update categories set name = $3, short_description = $4, long_description = $5, parent_id = $6, version = version + 1
          where tenant_id = $1 and id = $2`,
      [tenantId, id, next.name, next.shortDescription, next.longDescription, next.parentId],
    );
    return this.get(tenantId, id, sql);
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      // Counted to say how many are in the way (a refusal names them; the counts stop early).
      const [row] = await sql.query<{
        name: string;
        children: number;
        items: number;
        version: number;
      }>(
        `select name,
                (select count(*)::int from (select 1 from categories
                   where tenant_id = $1 and parent_id = $2 limit ${REFUSAL_COUNT_LIMIT}) c) as children,
                (select count(*)::int from (select 1 from items
                   where tenant_id = $1 and category_id = $2 limit ${REFUSAL_COUNT_LIMIT}) i) as items,
                version
           from categories where tenant_id = $1 and id = $2 for update`,
        [tenantId, id],
      );
      if (!row) throw catalogErrors.categoryNotFound(id);
      checkVersion(row.version);
      if (row.children > 0) throw catalogErrors.categoryHasChildren(row.name, row.children);
      if (row.items > 0) throw catalogErrors.categoryHasItems(row.name, row.items);
      await translatingConstraints(
        () => sql.query('delete from categories where tenant_id = $1 and id = $2', [tenantId, id]),
        {
          stillReferenced: () => catalogErrors.categoryInUse(id),
        },
      );
    });
  }

  /**
   * The whole tree as JSON text: roots first, children nested in CategoryTreeItems, ordered by
   * id. Written without recursion (treeJson), as a tree made deeper than MAX_CATEGORY_DEPTH
   * before the limit may be thousands of levels deep.
   */
  async treeJson(tenantId: number): Promise<string> {
    return treeJson((await this.tree(tenantId)).Categories);
  }

  /** The whole tree: roots first, children nested in CategoryTreeItems, ordered by id. */
  async tree(tenantId: number): Promise<{ Categories: CategoryTreeNode[] }> {
    const rows = await this.db.query<CategoryTreeNode & { parentId: number | null }>(
      `select c.id as "Id", c.name as "Name", c.short_description as "ShortDescription", c.long_description as "LongDescription",
              c.parent_id as "parentId",
              coalesce((select json_agg(json_build_object('Key', m.key, 'Value', m.value) order by m.key)
                          from category_metadata m where m.tenant_id = $1 and m.category_id = c.id), '[]') as "CategoryMetadata"
         from categories c where c.tenant_id = $1 order by c.id`,
      [tenantId],
    );
    const nodes = new Map<number, CategoryTreeNode>();
    for (const { parentId: _parent, ...node } of rows)
      nodes.set(node.Id, { ...node, CategoryTreeItems: [] });
    const roots: CategoryTreeNode[] = [];
    for (const row of rows) {
      const node = nodes.get(row.Id)!;
      const parent = row.parentId === null ? undefined : nodes.get(row.parentId);
      (parent ? parent.CategoryTreeItems : roots).push(node);
    }
    return { Categories: roots };
  }

  /** The ids of a category and its descendants (MAX_CATEGORY_DEPTH levels: category-depth.ts). */
  async subtreeIds(tenantId: number, id: number): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(subtreeSql('$2'), [tenantId, id]);
    return rows.map((r) => r.id);
  }

  async metadata(tenantId: number, categoryId: number): Promise<{ Key: string; Value: string }[]> {
    return (await this.get(tenantId, categoryId)).value.CategoryMetadata;
  }

  async addMetadata(tenantId: number, body: CategoryMetadataBody): Promise<CategoryMetadataBody> {
    await this.requireCategoryInBody(tenantId, body.CategoryId);
    await translatingConstraints(
      () =>
        this.db.query(
          'insert into category_metadata (tenant_id, category_id, key, value) values ($1, $2, $3, $4)',
          [tenantId, body.CategoryId, body.Key, body.Value],
        ),
      {
        unique: () => catalogErrors.duplicateMetadataKey(body.CategoryId, body.Key),
        missingReference: () =>
          catalogErrors.unknownReference('CategoryId', `category ${body.CategoryId}`),
      },
    );
    return body;
  }

  async updateMetadata(
    tenantId: number,
    body: CategoryMetadataBody,
  ): Promise<CategoryMetadataBody> {
    await this.requireCategoryInBody(tenantId, body.CategoryId);
    const updated = await this.db.query(
      'update category_metadata set value = $4 where tenant_id = $1 and category_id = $2 and key = $3 returning key',
      [tenantId, body.CategoryId, body.Key, body.Value],
    );
    if (updated.length === 0) throw catalogErrors.metadataNotFound(body.CategoryId, body.Key);
    return body;
  }

  async deleteMetadata(
    tenantId: number,
    categoryId: number,
    key: string | undefined,
  ): Promise<void> {
    await this.get(tenantId, categoryId);
    if (key === undefined) {
      await this.db.query(
        'delete from category_metadata where tenant_id = $1 and category_id = $2',
        [tenantId, categoryId],
      );
      return;
    }
    const deleted = await this.db.query(
      'delete from category_metadata where tenant_id = $1 and category_id = $2 and key = $3 returning key',
      [tenantId, categoryId, key],
    );
    if (deleted.length === 0) throw catalogErrors.metadataNotFound(categoryId, key);
  }

  private async requireCategoryInBody(tenantId: number, id: number): Promise<void> {
    const [row] = await this.db.query('select 1 from categories where tenant_id = $1 and id = $2', [
      tenantId,
      id,
    ]);
    if (!row) throw catalogErrors.unknownReference('CategoryId', `category ${id}`);
  }

  private async requireParent(sql: RawSql, tenantId: number, parentId: number): Promise<void> {
    const [row] = await sql.query('select 1 from categories where tenant_id = $1 and id = $2', [
      tenantId,
      parentId,
    ]);
    if (!row) throw catalogErrors.unknownReference('ParentCategoryId', `category ${parentId}`);
  }

  /** 409 DuplicateCategoryName when another category under the parent has the name. */
  private async refuseDuplicateName(
    sql: RawSql,
    tenantId: number,
    parentId: number | null,
    name: string,
    exceptId = 0,
  ): Promise<void> {
    if (!(await categoryNameTaken(sql, tenantId, parentId, name, exceptId))) return;
    const [parent] =
      parentId === null
        ? []
        : await sql.query<{ name: string }>(
            'select name from categories where tenant_id = $1 and id = $2',
            [tenantId, parentId],
          );
    throw catalogErrors.duplicateCategoryName(name, parent?.name ?? null);
  }

  /**
   * 409 CategoryCycle when the new parent is the category or under it; 400 CategoryTooDeep when
   * the category's subtree would reach below MAX_CATEGORY_DEPTH there. The climb from the new
   * parent is bounded: when it stops before a root, the parent is too deep already.
   */
  private async refuseCycleOrDepth(
    sql: RawSql,
    tenantId: number,
    id: number,
    newParentId: number,
  ): Promise<void> {
    const parent = await climb(sql, tenantId, newParentId, id);
    if (parent.hasAncestor) throw catalogErrors.categoryCycle(id, newParentId);
    if (parent.depth + 1 > MAX_CATEGORY_DEPTH)
      throw categoryTooDeep('ParentCategoryId', parent.depth + 1);
    const deepest = parent.depth + (await subtreeHeight(sql, tenantId, id));
    if (deepest > MAX_CATEGORY_DEPTH) throw categoryTooDeep('ParentCategoryId', deepest);
  }
}

/** `{"Categories":[…]}` of the tree, nested to any depth with a stack of its own. */
export function treeJson(roots: CategoryTreeNode[]): string {
  const parts = ['{"Categories":['];
  const stack = [{ nodes: roots, next: 0 }];
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    if (top.next === top.nodes.length) {
      stack.pop();
      // A node's list closes with the node; the roots' list with the answer's object.
      parts.push(']}');
      continue;
    }
    const node = top.nodes[top.next++]!;
    parts.push(
      `${top.next > 1 ? ',' : ''}{"Id":${node.Id},"Name":${JSON.stringify(node.Name)},` +
        `"ShortDescription":${JSON.stringify(node.ShortDescription)},` +
        `"LongDescription":${JSON.stringify(node.LongDescription)},` +
        `"CategoryMetadata":${JSON.stringify(node.CategoryMetadata)},"CategoryTreeItems":[`,
    );
    stack.push({ nodes: node.CategoryTreeItems, next: 0 });
  }
  return parts.join('');
}
