// Items (contract §5.3): the list and the simple search.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CATALOG,
  createBrand,
  createCategory,
  createItem,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectFieldError, expectStatus } from '../../../support/expectations.ts';
import {
  useItemsApi,
  api,
  acme,
  sku,
  word,
  list,
  search,
  searchOk,
  totalItems,
} from './items-fixtures.ts';

useItemsApi();

describe('GET /private/catalog/items', () => {
  it('pages by skip and take in Id order with TotalCount of all items', async () => {
    for (let i = 0; i < 3; i++) await createItem(api, acme);
    const all = await list();
    expect(all.TotalCount).toBe(all.Results.length);
    const ids = all.Results.map((i) => i.Id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const page = await list('skip=1&take=2');
    expect(page.TotalCount).toBe(all.TotalCount);
    expect(page.Results.map((i) => i.Id)).toEqual(ids.slice(1, 3));
    expect(page.Results[0]).toEqual(all.Results[1]);
  });

  it('defaults to skip 0 and take 20', async () => {
    while ((await totalItems()) < 21) await createItem(api, acme);
    const page = await list('');
    expect(page.Results).toHaveLength(20);
    expect(page.Results[0]!.Id).toBe((await list('take=1')).Results[0]!.Id);
  });

  it('answers an empty page with 200 and Results []', async () => {
    const page = await list('skip=100000&take=5');
    expect(page.Results).toEqual([]);
    expect(page.TotalCount).toBeGreaterThan(0);
  });

  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
    ['take=abc', 'take'],
  ])('rejects %s with 400', async (query, field) => {
    expectFieldError(await api.call({ url: `${CATALOG}/items?${query}`, tenant: acme }), field);
  });
});

describe('GET /private/catalog/items/search', () => {
  let fixture: {
    shoes: number;
    boots: number;
    shoesChild: number;
    alpha: number;
    beta: number;
    tag: string;
    a: ItemJson;
    b: ItemJson;
    c: ItemJson;
    d: ItemJson;
  };

  beforeAll(async () => {
    const shoes = await createCategory(api, acme);
    const boots = await createCategory(api, acme);
    const shoesChild = await createCategory(api, acme, { ParentCategoryId: shoes.Id });
    const alpha = await createBrand(api, acme);
    const beta = await createBrand(api, acme);
    const tag = word();
    const a = await createItem(api, acme, {
      Title: `Trail ${tag} runner`,
      SKU: sku(),
      UUID: randomUUID(),
      Model: `XR${tag}`,
      CategoryId: shoes.Id,
      BrandId: alpha.Id,
    });
    const b = await createItem(api, acme, {
      Title: `Road ${tag}`,
      CategoryId: shoes.Id,
      BrandId: beta.Id,
      ShortDescription: `Light ${tag}q`,
    });
    const c = await createItem(api, acme, {
      Title: 'Winter boot',
      Name: `${tag} boot`,
      CategoryId: boots.Id,
      BrandId: alpha.Id,
    });
    const d = await createItem(api, acme, {
      Title: `Kids ${tag}`,
      CategoryId: shoesChild.Id,
      BrandId: alpha.Id,
    });
    const grouped = await api.call({
      method: 'POST',
      url: `${CATALOG}/items/${a.Id}/group`,
      tenant: acme,
      body: [c.Id],
    });
    expectStatus(grouped, 200);
    fixture = {
      shoes: shoes.Id,
      boots: boots.Id,
      shoesChild: shoesChild.Id,
      alpha: alpha.Id,
      beta: beta.Id,
      tag,
      a,
      b,
      c,
      d,
    };
  });

  const ids = (page: Page<ItemJson>) => page.Results.map((i) => i.Id);

  it('filters by categoryId (that category only, not its subcategories)', async () => {
    const page = await searchOk(`categoryId=${fixture.shoes}`);
    expect(ids(page)).toEqual([fixture.a.Id, fixture.b.Id]);
    expect(page.TotalCount).toBe(2);
  });

  it('filters by brandId, and by several filters together', async () => {
    expect(ids(await searchOk(`brandId=${fixture.alpha}`))).toEqual([
      fixture.a.Id,
      fixture.c.Id,
      fixture.d.Id,
    ]);
    expect(ids(await searchOk(`brandId=${fixture.alpha}&categoryId=${fixture.boots}`))).toEqual([
      fixture.c.Id,
    ]);
  });

  it('filters by exact sku and uuid', async () => {
    expect(ids(await searchOk(`sku=${fixture.a.SKU!}`))).toEqual([fixture.a.Id]);
    expect(ids(await searchOk(`uuid=${fixture.a.UUID!}`))).toEqual([fixture.a.Id]);
    expect((await searchOk(`sku=${fixture.a.SKU!.slice(0, 10)}`)).Results).toEqual([]);
  });

  it('filters by a comma-separated itemIds list', async () => {
    const page = await searchOk(
      `itemIds=${encodeURIComponent(` ${fixture.d.Id} , ${fixture.b.Id},999999`)}`,
    );
    expect(ids(page)).toEqual([fixture.b.Id, fixture.d.Id]);
  });

  it('filters by defaultItemId: the default item and its variants', async () => {
    expect(ids(await searchOk(`defaultItemId=${fixture.a.Id}`))).toEqual([
      fixture.a.Id,
      fixture.c.Id,
    ]);
  });

  it('leaves variants out with includeOnlyMasterItems', async () => {
    const all = `itemIds=${fixture.a.Id},${fixture.b.Id},${fixture.c.Id}`;
    expect(ids(await searchOk(`${all}&includeOnlyMasterItems=true`))).toEqual([
      fixture.a.Id,
      fixture.b.Id,
    ]);
    expect(ids(await searchOk(`${all}&includeOnlyMasterItems=false`))).toHaveLength(3);
  });

  it('matches q as word prefixes over Title, Name, SKU, Model and descriptions', async () => {
    const page = await searchOk(`q=${fixture.tag}`);
    // a (Title), b (Title, ShortDescription), c (Name), d (Title).
    expect(ids(page)).toEqual([fixture.a.Id, fixture.b.Id, fixture.c.Id, fixture.d.Id]);
    expect(ids(await searchOk(`q=${fixture.tag.toUpperCase().slice(0, 9)}`))).toHaveLength(4);
    expect(ids(await searchOk(`q=${encodeURIComponent(`trail ${fixture.tag}`)}`))).toEqual([
      fixture.a.Id,
    ]);
    expect(ids(await searchOk(`q=xr${fixture.tag}`))).toEqual([fixture.a.Id]);
    expect(ids(await searchOk(`q=${fixture.tag}q`))).toEqual([fixture.b.Id]);
  });

  it('pages the filtered set and counts it before paging', async () => {
    const page = await searchOk(`brandId=${fixture.alpha}&skip=1&take=1`);
    expect(ids(page)).toEqual([fixture.c.Id]);
    expect(page.TotalCount).toBe(3);
    const beyond = await searchOk(`brandId=${fixture.alpha}&skip=10`);
    expect(beyond).toEqual({ Results: [], TotalCount: 3 });
  });

  it('answers 200 with no results when nothing matches', async () => {
    expect(await searchOk(`q=${word()}`)).toEqual({ Results: [], TotalCount: 0 });
    expect(await searchOk('categoryId=999999')).toEqual({ Results: [], TotalCount: 0 });
  });

  it.each([
    ['itemIds=abc', 'itemIds'],
    ['itemIds=1,,2', 'itemIds'],
    // Past 2^53 - 1, the ids' range.
    ['itemIds=9007199254740992', 'itemIds'],
    ['itemIds=0', 'itemIds'],
    ['categoryId=0', 'categoryId'],
    ['brandId=x', 'brandId'],
    ['defaultItemId=-3', 'defaultItemId'],
    ['includeOnlyMasterItems=perhaps', 'includeOnlyMasterItems'],
    ['sku=', 'sku'],
    [`q=${'q'.repeat(257)}`, 'q'],
    ['take=0', 'take'],
    ['skip=-1', 'skip'],
  ])('rejects %s with 400', async (query, field) => {
    expectFieldError(await search(query), field);
  });
});
