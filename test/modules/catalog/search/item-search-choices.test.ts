// POST /private/catalog/items (contract §5.3): what a list built on the search shows. Choosing a
// navigation entry gives its count: a brand's or tag's Count, a category's CountWithSubcategories
// (the CategoryId filter includes the subcategories); IncludeDefaultImages answers the default
// image of each item of the page in the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createBrand,
  createCategory,
  createItem,
  createTag,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import {
  createAsset,
  png,
  startStorageApi,
  type AssetJson,
  type StorageTestApi,
} from '../../storage/storage-fixtures.ts';
import { idsOf, searchOk, type SearchResultJson } from './search-fixtures.ts';

let api: StorageTestApi;
let acme: TestTenant;
let globex: TestTenant;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await startStorageApi('disk');
  acme = await api.createTenant('acme');
  globex = await api.createTenant('globex');
  // Clothing > Outerwear > Jackets, and Shoes: the user's case was "Outerwear (1)" whose choice
  // gave 3 items (one in Outerwear itself, two in Jackets).
  const clothing = await createCategory(api, acme, { Name: 'Clothing' });
  const outerwear = await createCategory(api, acme, {
    Name: 'Outerwear',
    ParentCategoryId: clothing.Id,
  });
  const jackets = await createCategory(api, acme, {
    Name: 'Jackets',
    ParentCategoryId: outerwear.Id,
  });
  const shoes = await createCategory(api, acme, { Name: 'Shoes' });
  const brand = await createBrand(api, acme, 'Northwind');
  const tag = await createTag(api, acme, { Name: 'winter' });
  Object.assign(ids, {
    clothing: clothing.Id,
    outerwear: outerwear.Id,
    jackets: jackets.Id,
    shoes: shoes.Id,
    brand: brand.Id,
    tag: tag.Id,
  });
  const put = [
    { Title: 'Wool coat', CategoryId: outerwear.Id, BrandId: brand.Id, Tags: [{ Id: tag.Id }] },
    { Title: 'Rain jacket', CategoryId: jackets.Id, BrandId: brand.Id },
    { Title: 'Down jacket', CategoryId: jackets.Id, Tags: [{ Id: tag.Id }] },
    { Title: 'Plain shirt', CategoryId: clothing.Id },
    { Title: 'Trail shoe', CategoryId: shoes.Id, BrandId: brand.Id },
    { Title: 'Gift card' },
  ];
  for (const body of put) ids[body.Title] = (await createItem(api, acme, body)).Id;
});
afterAll(() => api.close());

const categoryCounts = (
  facets: { Name: string; Count: number; CountWithSubcategories: number }[],
) => facets.map((f) => [f.Name, f.Count, f.CountWithSubcategories]);

describe('POST /private/catalog/items: navigation counts are what choosing gives', () => {
  it('gives each category its own matches and those of its subcategories', async () => {
    const got = await searchOk(api, acme, { IncludeStaticNavigation: true });
    // Ordered by Count (own matches), then Id.
    expect(categoryCounts(got.StaticNavigation!.Categories)).toEqual([
      ['Jackets', 2, 2],
      ['Clothing', 1, 4],
      ['Outerwear', 1, 3],
      ['Shoes', 1, 1],
    ]);
  });

  it('under a CategoryId, counts within that subtree', async () => {
    const got = await searchOk(api, acme, {
      CategoryId: ids.outerwear,
      IncludeStaticNavigation: true,
    });
    expect(got.TotalItemCount).toBe(3);
    expect(categoryCounts(got.StaticNavigation!.Categories)).toEqual([
      ['Jackets', 2, 2],
      ['Outerwear', 1, 3],
    ]);
  });

  const criteria: [string, () => Record<string, unknown>][] = [
    ['no criterion', () => ({})],
    ['a Query', () => ({ Query: 'jacket' })],
    ['a BrandId', () => ({ BrandId: ids.brand })],
    ['a TagId', () => ({ TagId: ids.tag })],
    ['a CategoryId', () => ({ CategoryId: ids.clothing })],
  ];

  it.each(criteria)('with %s, choosing an entry gives its count', async (_, of) => {
    const body: Record<string, unknown> = { ...of(), IncludeStaticNavigation: true };
    const got = await searchOk(api, acme, body);
    const navigation = got.StaticNavigation!;
    expect(navigation.Categories.length + navigation.Brands.length).toBeGreaterThan(0);
    const choose = async (field: string, id: number) =>
      (await searchOk(api, acme, { ...body, [field]: id })).TotalItemCount;
    for (const c of navigation.Categories)
      expect(await choose('CategoryId', c.Id), `category ${c.Name}`).toBe(c.CountWithSubcategories);
    for (const b of navigation.Brands)
      expect(await choose('BrandId', b.Id), `brand ${b.Name}`).toBe(b.Count);
    // Choosing a tag while another is chosen replaces it (one TagId), so tags are checked when
    // no tag is chosen.
    if (body.TagId === undefined)
      for (const t of navigation.Tags)
        expect(await choose('TagId', t.Id), `tag ${t.Name}`).toBe(t.Count);
  });

  it("never counts another tenant's items or categories", async () => {
    await createCategory(api, globex, { Name: 'Clothing' });
    const got = await searchOk(api, globex, { IncludeStaticNavigation: true });
    expect(got.StaticNavigation!.Categories).toEqual([]);
  });
});

describe('POST /private/catalog/items: IncludeDefaultImages', () => {
  let front: AssetJson;
  let back: AssetJson;

  beforeAll(async () => {
    front = await createAsset(api, acme, png(), 'image/png', 'coat-front.png');
    back = await createAsset(api, acme, png(3, 3), 'image/png', 'coat-back.png');
    const relate = async (itemId: number, asset: AssetJson, isDefault: boolean) =>
      expectStatus(
        await api.call({
          method: 'POST',
          url: `${CATALOG}/items/${itemId}/image?assetId=${asset.Id}&isDefault=${isDefault}`,
          tenant: acme,
        }),
        201,
      );
    await relate(ids['Wool coat']!, back, false);
    await relate(ids['Wool coat']!, front, true);
    // A related image that is not the default gives no thumbnail.
    await relate(ids['Rain jacket']!, back, false);
  });

  const imagesOf = (result: SearchResultJson) => result.DefaultImages;

  it('answers the default image of each item of the page that has one', async () => {
    const got = await searchOk(api, acme, { BrandId: ids.brand, IncludeDefaultImages: true });
    const listed = await api.call({
      url: `${CATALOG}/items/${ids['Wool coat']}/image`,
      tenant: acme,
    });
    const url = listed
      .json<{ AssetId: number; AssetUrl: string }[]>()
      .find((i) => i.AssetId === front.Id)!.AssetUrl;
    // The brand's three items: the rain jacket's image is not its default, the shoe has none.
    expect(idsOf(got)).toEqual([ids['Wool coat'], ids['Rain jacket'], ids['Trail shoe']]);
    expect(imagesOf(got)).toEqual([
      {
        ItemId: ids['Wool coat'],
        AssetId: front.Id,
        AssetUrl: url,
        MimeType: 'image/png',
        FileName: 'coat-front.png',
      },
    ]);
  });

  it('describes only the items of the page', async () => {
    const all = await searchOk(api, acme, { IncludeDefaultImages: true, Take: 100 });
    expect(imagesOf(all)!.map((i) => i.ItemId)).toEqual([ids['Wool coat']]);
    const later = await searchOk(api, acme, {
      IncludeDefaultImages: true,
      Skip: 1,
      Take: 100,
    });
    expect(idsOf(later)).not.toContain(ids['Wool coat']);
    expect(imagesOf(later)).toEqual([]);
  });

  it('is null unless asked for', async () => {
    expect(imagesOf(await searchOk(api, acme, {}))).toBeNull();
    expect(imagesOf(await searchOk(api, acme, { IncludeDefaultImages: false }))).toBeNull();
    expect(imagesOf(await searchOk(api, acme, { IncludeDefaultImages: null }))).toBeNull();
  });

  it('is 400 when not a boolean', async () => {
    const response = await api.call({
      method: 'POST',
      url: `${CATALOG}/items`,
      tenant: acme,
      body: { IncludeDefaultImages: 'yes' },
    });
    expectStatus(response, 400);
  });

  it("shows another tenant's search none of these images", async () => {
    const item = await createItem(api, globex, { Title: 'Wool coat' });
    const got = await searchOk(api, globex, { Query: 'coat', IncludeDefaultImages: true });
    expect(idsOf(got)).toEqual([item.Id]);
    expect(imagesOf(got)).toEqual([]);
  });
});
