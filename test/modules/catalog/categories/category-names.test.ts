// A category's name is unique among its siblings, whatever the case (docs/api.md, "Categories"):
// 409 DuplicateCategoryName on create, PUT, PATCH and a move under a parent that has the name;
// the same name under another parent, or in another tenant, is fine; siblings of one name from
// before the rule stay editable; the import matches names case-insensitively and creates none twice.
import { describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import { useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  unique,
  type CategoryJson,
  type CategoryTreeItemJson,
} from '../catalog-fixtures.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import { JSONL, jsonl, runImport, useImportApi } from '../imports/imports-fixtures.ts';

const api = useImportApi();
const acme = useTenant(api, 'names');
const other = useTenant(api, 'names-other');

const URL = `${CATALOG}/category`;
const post = (body: unknown, tenant: TestTenant = acme) =>
  api.call({ method: 'POST', url: URL, tenant, body });
const put = (id: number, body: unknown) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body });
const patch = (id: number, body: unknown) =>
  api.call({ method: 'PATCH', url: `${URL}/${id}`, tenant: acme, body });
const fetch = async (id: number) => {
  const response = await api.call({ url: `${URL}/${id}`, tenant: acme });
  expectStatus(response, 200);
  return response.json<CategoryJson>();
};
const category = async (
  Name: string,
  ParentCategoryId: number | null = null,
  tenant: TestTenant = acme,
) => {
  const response = await post({ Name, ParentCategoryId }, tenant);
  expectStatus(response, 201);
  return response.json<CategoryJson>();
};
/** The categories of the tenant named `name` (any case), anywhere in the tree. */
const named = async (name: string) => {
  const response = await api.call({ url: `${CATALOG}/categories`, tenant: acme });
  const found: { Id: number; Name: string; parent: number | null }[] = [];
  const walk = (nodes: CategoryTreeItemJson[], parent: number | null) => {
    for (const node of nodes) {
      if (node.Name.toLowerCase() === name.toLowerCase())
        found.push({ Id: node.Id, Name: node.Name, parent });
      walk(node.CategoryTreeItems, node.Id);
    }
  };
  walk(response.json<{ Categories: CategoryTreeItemJson[] }>().Categories, null);
  return found;
};
/** A sibling of `of` with its name, as a database from before the rule may hold. */
async function legacySibling(of: CategoryJson): Promise<number> {
  const [row] = await api.database.handle.query<{ id: number }>(
    `insert into categories (tenant_id, name, parent_id)
     select id, $2, $3 from tenants where name = $1 returning id`,
    [acme.name, of.Name, of.ParentCategoryId],
  );
  return row!.id;
}

describe('POST /private/catalog/category (names)', () => {
  it('refuses a second top-level category of one name with 409, whatever the case', async () => {
    const shoes = await category(unique('Shoes'));
    for (const same of [shoes.Name, shoes.Name.toUpperCase()]) {
      const body = expectError(await post({ Name: same }), 409, 'DuplicateCategoryName');
      expect(body.FriendlyDescription).toBe(`A top-level category named "${same}" already exists.`);
      expect(body.Errors).toBeUndefined();
    }
    expect(await named(shoes.Name)).toHaveLength(1);
  });

  it('refuses a second subcategory of one name under a parent, naming the parent', async () => {
    const parent = await category(unique('Footwear'));
    const child = await category('Running', parent.Id);
    const body = expectError(
      await post({ Name: 'running', ParentCategoryId: parent.Id }),
      409,
      'DuplicateCategoryName',
    );
    expect(body.FriendlyDescription).toBe(
      `Category "${parent.Name}" already has a subcategory named "running".`,
    );
    expect((await fetch(parent.Id)).SubCategoryCount).toBe(1);
    expect(child.ParentCategoryId).toBe(parent.Id);
  });

  it('takes the same name under another parent, and at the top beside a subcategory of it', async () => {
    const men = await category(unique('Men'));
    const women = await category(unique('Women'));
    const name = unique('Shirts');
    await category(name, men.Id);
    const second = await category(name, women.Id);
    const top = await category(name);
    expect(second.ParentCategoryId).toBe(women.Id);
    expect(top.ParentCategoryId).toBeNull();
    expect(await named(name)).toHaveLength(3);
  });

  it('takes a name that a category of another tenant has', async () => {
    const name = unique('Shared');
    await category(name);
    const theirs = await category(name, null, other);
    expect(theirs.Name).toBe(name);
  });

  it('refuses a name shared by siblings from before the rule', async () => {
    const twin = await category(unique('Twin'));
    await legacySibling(twin);
    expectError(await post({ Name: twin.Name }), 409, 'DuplicateCategoryName');
  });

  it('checks an unknown parent (400) before the name', async () => {
    const response = await post({ Name: 'Anything', ParentCategoryId: 999_999 });
    expectError(response, 400, undefined, 'ParentCategoryId');
  });
});

describe('PUT /private/catalog/category/{id} (names)', () => {
  it("refuses a sibling's name with 409, whatever the case, and changes nothing", async () => {
    const parent = await category(unique('Audio'));
    const a = await category('Headphones', parent.Id);
    const b = await category('Speakers', parent.Id);
    expectError(
      await put(b.Id, { Name: 'HEADPHONES', ParentCategoryId: parent.Id }),
      409,
      'DuplicateCategoryName',
    );
    expect((await fetch(b.Id)).Name).toBe('Speakers');
    expect((await fetch(a.Id)).Name).toBe('Headphones');
  });

  it('keeps its own name, in another case too', async () => {
    const parent = await category(unique('Audio'));
    const a = await category('Headphones', parent.Id);
    const renamed = await put(a.Id, { Name: 'HeadPhones', ParentCategoryId: parent.Id });
    expectStatus(renamed, 200);
    expect(renamed.json<CategoryJson>().Name).toBe('HeadPhones');
  });

  it('refuses a move (a PUT without a parent makes it a root) onto a name at the top', async () => {
    const name = unique('Sale');
    await category(name);
    const parent = await category(unique('Seasons'));
    const child = await category(name, parent.Id);
    expectError(await put(child.Id, { Name: name }), 409, 'DuplicateCategoryName');
    expect((await fetch(child.Id)).ParentCategoryId).toBe(parent.Id);
  });
});

describe('PATCH /private/catalog/category/{id} (names and moves)', () => {
  it("refuses a rename to a sibling's name with 409", async () => {
    const a = await category(unique('Garden'));
    const b = await category(unique('Kitchen'));
    expectError(await patch(b.Id, { Name: a.Name.toLowerCase() }), 409, 'DuplicateCategoryName');
    expect((await fetch(b.Id)).Name).toBe(b.Name);
  });

  it('refuses a move under a parent that has a child of the name, and allows it elsewhere', async () => {
    const men = await category(unique('Men'));
    const women = await category(unique('Women'));
    const kids = await category(unique('Kids'));
    await category('Shirts', men.Id);
    const shirts = await category('shirts', women.Id);
    const body = expectError(
      await patch(shirts.Id, { ParentCategoryId: men.Id }),
      409,
      'DuplicateCategoryName',
    );
    expect(body.FriendlyDescription).toBe(
      `Category "${men.Name}" already has a subcategory named "shirts".`,
    );
    expect((await fetch(shirts.Id)).ParentCategoryId).toBe(women.Id);
    const moved = await patch(shirts.Id, { ParentCategoryId: kids.Id });
    expectStatus(moved, 200);
    expect(moved.json<CategoryJson>().ParentCategoryId).toBe(kids.Id);
  });

  it('refuses a move to the top where a root has the name; a rename in the same PATCH is checked as one', async () => {
    const name = unique('Outlet');
    await category(name);
    const parent = await category(unique('Stores'));
    const child = await category(name, parent.Id);
    expectError(await patch(child.Id, { ParentCategoryId: null }), 409, 'DuplicateCategoryName');
    const moved = await patch(child.Id, { ParentCategoryId: null, Name: `${name} 2` });
    expectStatus(moved, 200);
    expect(moved.json<CategoryJson>()).toMatchObject({ ParentCategoryId: null, Name: `${name} 2` });
  });

  it('answers a cycle with 409 CategoryCycle, not as a duplicate', async () => {
    const top = await category(unique('Loop'));
    const below = await category(top.Name, top.Id);
    expectError(await patch(top.Id, { ParentCategoryId: below.Id }), 409, 'CategoryCycle');
  });

  it('lets siblings of one name from before the rule change anything but the name', async () => {
    const twin = await category(unique('Twin'));
    const legacy = await legacySibling(twin);
    const described = await patch(legacy, { ShortDescription: 'still a twin' });
    expectStatus(described, 200);
    expect(described.json<CategoryJson>().ShortDescription).toBe('still a twin');
    expectStatus(await put(legacy, { Name: twin.Name.toUpperCase(), ShortDescription: 'x' }), 200);
    expectStatus(await patch(legacy, { Name: `${twin.Name} (old)` }), 200);
    expectError(await patch(legacy, { Name: twin.Name }), 409, 'DuplicateCategoryName');
  });

  it("does not see another tenant's categories", async () => {
    const name = unique('Theirs');
    await category(name, null, other);
    const ours = await category(unique('Ours'));
    expectStatus(await patch(ours.Id, { Name: name }), 200);
  });
});

describe('POST /private/catalog/imports (category names)', () => {
  it('matches a path in another case to the categories there, and creates none twice', async () => {
    const root = await category(unique('Clothing'));
    const shirts = await category('Shirts', root.Id);
    const job = await runImport(
      api,
      acme,
      jsonl([
        { Title: 'A', CategoryPath: [root.Name.toUpperCase(), 'SHIRTS'] },
        { Title: 'B', CategoryPath: [root.Name, 'shirts', 'Linen'] },
        { Title: 'C', CategoryPath: [root.Name, 'Shirts', 'LINEN'] },
      ]),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 3, RowsFailed: 0 });
    const under = async (name: string, parent: number) =>
      (await named(name)).filter((c) => c.parent === parent);
    expect(await under('Shirts', root.Id)).toEqual([
      { Id: shirts.Id, Name: 'Shirts', parent: root.Id },
    ]);
    expect(await under('Linen', shirts.Id)).toEqual([
      { Id: expect.any(Number) as number, Name: 'Linen', parent: shirts.Id },
    ]);
  });

  it('matches a Category name in another case, and creates a missing one once at the top', async () => {
    const known = await category(unique('Known'));
    const fresh = unique('Fresh');
    const job = await runImport(
      api,
      acme,
      jsonl([
        { Title: 'A', Category: known.Name.toLowerCase() },
        { Title: 'B', Category: fresh },
        { Title: 'C', Category: fresh.toUpperCase() },
      ]),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 3 });
    expect(await named(known.Name)).toHaveLength(1);
    expect(await named(fresh)).toEqual([
      { Id: expect.any(Number) as number, Name: fresh, parent: null },
    ]);
  });
});
