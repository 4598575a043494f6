// The category tree's depth limit (issue 46): MAX_CATEGORY_DEPTH levels, a root at level 1.
// Create, move and import refuse to go below it (400 CategoryTooDeep; an import's record fails);
// a tree made deeper before the limit (here straight in the table) still answers its tree, and a
// search of its root reads MAX_CATEGORY_DEPTH levels of it.
import { describe, expect, it } from 'vitest';
import { MAX_CATEGORY_DEPTH } from '../../../../src/modules/catalog/categories/category-depth.ts';
import type { TestTenant } from '../../../support/test-api.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import {
  CATALOG,
  createCategory,
  createItem,
  type CategoryTreeItemJson,
} from '../catalog-fixtures.ts';
import {
  JSONL,
  importResults,
  jsonl,
  runImport,
  useImportApi,
} from '../imports/imports-fixtures.ts';

const api = useImportApi();
let counter = 0;
const newTenant = () => api.createTenant(`depth-${++counter}-${Date.now() % 100000}`);

/** A chain of `levels` categories made through the API; their ids, the root's first. */
async function chain(tenant: TestTenant, levels: number, prefix = 'level'): Promise<number[]> {
  const ids: number[] = [];
  for (let level = 1; level <= levels; level++) {
    const created = await createCategory(api, tenant, {
      Name: `${prefix} ${level}`,
      ParentCategoryId: ids.at(-1) ?? null,
    });
    ids.push(created.Id);
  }
  return ids;
}

const patchParent = (tenant: TestTenant, id: number, parent: number) =>
  api.call({
    method: 'PATCH',
    url: `${CATALOG}/category/${id}`,
    tenant,
    body: { ParentCategoryId: parent },
  });

describe('POST /private/catalog/category (depth)', () => {
  it(`creates a chain ${MAX_CATEGORY_DEPTH} levels deep and refuses one more level`, async () => {
    const tenant = await newTenant();
    const ids = await chain(tenant, MAX_CATEGORY_DEPTH);
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/category`,
      tenant,
      body: { Name: 'too deep', ParentCategoryId: ids.at(-1) },
    });
    const body = expectError(response, 400, 'CategoryTooDeep', 'ParentCategoryId');
    expect(body.FriendlyDescription).toContain(`at most ${MAX_CATEGORY_DEPTH} levels deep`);
  });
});

describe('PATCH /private/catalog/category/{id} (depth)', () => {
  it('moves a subtree only where its deepest category stays within the limit', async () => {
    const tenant = await newTenant();
    const deep = await chain(tenant, MAX_CATEGORY_DEPTH - 1);
    const [top, child] = await chain(tenant, 2, 'moved'); // a subtree two levels high
    expectError(await patchParent(tenant, top!, deep.at(-1)!), 400, 'CategoryTooDeep');
    expectStatus(await patchParent(tenant, top!, deep.at(-2)!), 200);
    // Its child is now at the last level: nothing may go under it.
    expectError(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/category`,
        tenant,
        body: { Name: 'below', ParentCategoryId: child },
      }),
      400,
      'CategoryTooDeep',
    );
    // A cycle is still a cycle (409), whatever the depth.
    expectError(await patchParent(tenant, deep[0]!, child!), 409, 'CategoryCycle');
  });
});

describe('POST /private/catalog/imports (category depth)', () => {
  it(`creates a path of ${MAX_CATEGORY_DEPTH} names and fails a longer one`, async () => {
    const tenant = await newTenant();
    const names = (count: number) => Array.from({ length: count }, (_, i) => `L${i + 1}`);
    const job = await runImport(
      api,
      tenant,
      jsonl([
        { RecordType: 'Category', CategoryPath: names(MAX_CATEGORY_DEPTH) },
        { RecordType: 'Category', CategoryPath: names(MAX_CATEGORY_DEPTH + 1) },
      ]),
      JSONL,
      'errorPolicy=SkipFailedRows&createMissing=true',
    );
    expect(job).toMatchObject({ RowsWritten: 1, RowsFailed: 1 });
    const results = await importResults(api, tenant, job.Id);
    expect(results[1]!.Errors).toEqual([
      {
        Field: 'CategoryPath',
        Message: `CategoryPath has more than ${MAX_CATEGORY_DEPTH} entries. Give at most ${MAX_CATEGORY_DEPTH}.`,
      },
    ]);
  });
});

describe('GET /private/catalog/categories and a search (a tree deeper than the limit)', () => {
  it('answers a tree 1,000 levels deep (the answer check of the suite recurses; bench/hostile-input.ts goes to 8,000) and searches its root to the limit', async () => {
    const tenant = await newTenant();
    const db = api.database.handle;
    const [{ id: tenantId }] = (await db.query<{ id: number }>(
      'select id from tenants where name = $1',
      [tenant.name],
    )) as [{ id: number }];
    // Two statements: the rows, then each one's parent (the one made before it).
    const ids = (
      await db.query<{ id: number }>(
        `insert into categories (tenant_id, name)
         select $1, 'level ' || n from generate_series(1, 1000) n order by n returning id`,
        [tenantId],
      )
    )
      .map((row) => row.id)
      .sort((a, b) => a - b);
    await db.query(
      `update categories c set parent_id = v.parent
         from unnest($2::int[], $3::int[]) v (id, parent) where c.tenant_id = $1 and c.id = v.id`,
      [tenantId, ids.slice(1), ids.slice(0, -1)],
    );
    const tree = await api.app.inject({
      method: 'GET',
      url: `${CATALOG}/categories`,
      headers: { host: tenant.host, authorization: `Bearer ${tenant.token}` },
    });
    expectStatus(tree, 200);
    let node = tree.json<{ Categories: CategoryTreeItemJson[] }>().Categories[0];
    let levels = 0;
    while (node) {
      levels++;
      node = node.CategoryTreeItems[0];
    }
    expect(levels).toBe(1000);

    const shallow = await createItem(api, tenant, { CategoryId: ids[MAX_CATEGORY_DEPTH - 1]! });
    await createItem(api, tenant, { CategoryId: ids.at(-1)! });
    const search = await api.call({
      method: 'POST',
      url: `${CATALOG}/items`,
      tenant,
      body: { CategoryId: ids[0] },
    });
    expectStatus(search, 200);
    expect(
      search
        .json<{ SearchResult: { Items: { Id: number }[] } }>()
        .SearchResult.Items.map((r) => r.Id),
    ).toEqual([shallow.Id]);
  });
});
