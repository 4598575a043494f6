// POST /private/catalog/items above the exact limit (SEARCH_EXACT_COUNT_LIMIT, here 500): a text
// Query with more matches answers CountsAreExact false, a TotalItemCount and navigation counts
// estimated from a sample within the documented error, and pages that are still exact and stable
// (Title or Name matches first, then the others, each by id). At or below the limit everything is
// exact, as before. The catalog is generated so that every expected figure is known.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTenant } from '../../../support/test-api.ts';
import { CATALOG, type ItemJson, type Page } from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { JSONL, jsonl, runImport, useImportApi } from '../imports/imports-fixtures.ts';
import { idsOf, searchOk, type Facet, type SearchResultJson } from './search-fixtures.ts';

const LIMIT = 500;
const ITEMS = 6000;
const api = useImportApi({ SEARCH_EXACT_COUNT_LIMIT: String(LIMIT) });
const acme = useTenant(api, 'estimates');
const other = useTenant(api, 'estimates-other');

/** What item n of the generated catalog has. */
function record(n: number) {
  const common = n % 3 !== 0; // 4,000 items
  const commonInTitle = common && n % 5 === 0; // 800 of them: a large first tier
  const mixed = n % 4 === 1; // 1,500 items
  const mixedInTitle = n % 100 === 1; // 60 of them: a small first tier
  const rare = n % 20 === 7; // 300 items: at most the limit
  const middling = n % 9 === 4; // 667 items: over the limit, but too few to tell from the 1/64 sample
  const title = [`Item ${String(n).padStart(4, '0')}`];
  const description: string[] = [];
  (commonInTitle ? title : description).push(common ? 'common' : '');
  (mixedInTitle ? title : description).push(mixed ? 'mixed' : '');
  description.push(rare ? 'rare' : '', middling ? 'middling' : '');
  return {
    n,
    common,
    commonInTitle,
    mixed,
    mixedInTitle,
    rare,
    middling,
    brand: n % 100 === 2 ? 'Narrow' : n % 2 === 0 ? 'Wide' : 'Other', // 1% and 50%
    category: n % 10 < 3 ? ['Home', 'Lamps'] : n % 10 === 3 ? ['Home'] : ['Garden'],
    sale: n % 4 === 0,
    price: 10 + (n % 500),
    title: title.join(' '),
    description: description.filter(Boolean).join(' '),
  };
}
type Generated = ReturnType<typeof record> & { id: number };
let catalog: Generated[];

beforeAll(async () => {
  const records = Array.from({ length: ITEMS }, (_, n) => record(n));
  const job = await runImport(
    api,
    acme,
    jsonl(
      records.map((r) => ({
        SKU: `EST-${r.n}`,
        Title: r.title,
        ShortDescription: r.description || null,
        Brand: r.brand,
        CategoryPath: r.category,
        Tags: r.sale ? [{ Name: 'Sale' }] : [],
        Prices: [{ PriceTypeSymbol: '$', NormalPrice: r.price }],
      })),
    ),
    JSONL,
    'createMissing=true',
  );
  expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: ITEMS });
  const ids = new Map<string, number>();
  for (let skip = 0; skip < ITEMS; skip += 1000) {
    const page = await api.call({ url: `${CATALOG}/items?skip=${skip}&take=1000`, tenant: acme });
    expectStatus(page, 200);
    for (const item of page.json<Page<ItemJson>>().Results) ids.set(item.SKU!, item.Id);
  }
  catalog = records.map((r) => ({ ...r, id: ids.get(`EST-${r.n}`)! }));
  // The other tenant has the same words in a few items of its own.
  await runImport(
    api,
    other,
    jsonl(
      Array.from({ length: 40 }, (_, n) => ({
        SKU: `OTHER-${n}`,
        Title: `common other ${n}`,
        Brand: 'Wide',
        Prices: [{ PriceTypeSymbol: '$', NormalPrice: 1000 + n }],
      })),
    ),
    JSONL,
    'createMissing=true',
  );
}, 180_000);

const navigations = { IncludeStaticNavigation: true, IncludeDynamicNavigation: true };
const search = (body: Record<string, unknown>) => searchOk(api, acme, body);
const facet = (list: Facet[], name: string) => list.find((f) => f.Name === name)?.Count ?? 0;

/**
 * The documented error of an estimated count c: the sample holds at least LIMIT / 2 matches, so
 * a count is scaled up by at most 2 × matches / LIMIT, and its standard error is at most
 * √(c × that factor). Three standard errors are allowed.
 */
const tolerance = (count: number, matches: number) =>
  3 * Math.sqrt(count * ((2 * matches) / LIMIT));

describe('POST /private/catalog/items: counts at or below the exact limit', () => {
  it('counts every match exactly and says so', async () => {
    const result = await search({ Query: 'rare', ...navigations });
    const rare = catalog.filter((r) => r.rare);
    expect(result.CountsAreExact).toBe(true);
    expect(result.TotalItemCount).toBe(rare.length);
    const brands = result.StaticNavigation!.Brands;
    for (const brand of ['Wide', 'Other', 'Narrow'])
      expect(facet(brands, brand), brand).toBe(rare.filter((r) => r.brand === brand).length);
    expect(facet(result.StaticNavigation!.Tags, 'Sale')).toBe(rare.filter((r) => r.sale).length);
  });

  it('counts exactly without a Query, however many items match', async () => {
    const result = await search({ ...navigations, Take: 1 });
    expect(result.CountsAreExact).toBe(true);
    expect(result.TotalItemCount).toBe(ITEMS);
    expect(facet(result.StaticNavigation!.Brands, 'Narrow')).toBe(ITEMS / 100);
  });
});

describe('POST /private/catalog/items: counts above the exact limit', () => {
  const common = () => catalog.filter((r) => r.common);

  it('estimates the total within the documented error and says so', async () => {
    const result = await search({ Query: 'common', ...navigations });
    const matches = common().length;
    expect(result.CountsAreExact).toBe(false);
    expect(result.TotalItemCount).toBeGreaterThan(LIMIT);
    expect(Math.abs(result.TotalItemCount - matches)).toBeLessThanOrEqual(
      tolerance(matches, matches),
    );
  });

  it('estimates a value in half of the matches and one in 1 % of them within the error', async () => {
    const result = await search({ Query: 'common', ...navigations });
    const matches = common();
    for (const brand of ['Wide', 'Narrow', 'Other']) {
      const truth = matches.filter((r) => r.brand === brand).length;
      const estimate = facet(result.StaticNavigation!.Brands, brand);
      expect(Math.abs(estimate - truth), `${brand}: ${estimate} for ${truth}`).toBeLessThanOrEqual(
        tolerance(truth, matches.length),
      );
    }
    const wide = matches.filter((r) => r.brand === 'Wide').length;
    expect(wide / matches.length).toBeCloseTo(0.5, 1);
    expect(matches.filter((r) => r.brand === 'Narrow').length / matches.length).toBeCloseTo(
      0.01,
      2,
    );
  });

  it('estimates categories with their subcategories, tags and prices from the same sample', async () => {
    const result = await search({ Query: 'common', ...navigations });
    const matches = common();
    const navigation = result.StaticNavigation!;
    const lamps = navigation.Categories.find((k) => k.Name === 'Lamps')!;
    const home = navigation.Categories.find((k) => k.Name === 'Home')!;
    const inLamps = matches.filter((r) => r.category.includes('Lamps')).length;
    const inHome = matches.filter((r) => r.category[0] === 'Home').length;
    expect(Math.abs(lamps.Count - inLamps)).toBeLessThanOrEqual(tolerance(inLamps, matches.length));
    expect(home.CountWithSubcategories).toBe(home.Count + lamps.Count);
    expect(Math.abs(home.CountWithSubcategories - inHome)).toBeLessThanOrEqual(
      tolerance(inHome, matches.length),
    );
    const sale = matches.filter((r) => r.sale).length;
    expect(Math.abs(facet(navigation.Tags, 'Sale') - sale)).toBeLessThanOrEqual(
      tolerance(sale, matches.length),
    );
    // A sample's price range lies within the real one.
    const [range] = navigation.PriceRanges;
    const prices = matches.map((r) => r.price);
    expect(range!.Min).toBeGreaterThanOrEqual(Math.min(...prices));
    expect(range!.Max).toBeLessThanOrEqual(Math.max(...prices));
    expect(range!.Max).toBeGreaterThan(range!.Min);
  });

  it('answers the same estimate every time (the sample is fixed by the items)', async () => {
    const first = await search({ Query: 'common', ...navigations });
    const second = await search({ Query: 'common', ...navigations });
    expect(second.TotalItemCount).toBe(first.TotalItemCount);
    expect(second.StaticNavigation).toEqual(first.StaticNavigation);
  });

  it('estimates over the filtered set: a brand, and a category with its subcategories', async () => {
    const brandId = (
      await search({ Query: 'common', ...navigations })
    ).StaticNavigation!.Brands.find((b) => b.Name === 'Wide')!.Id;
    const byBrand = await search({ Query: 'common', BrandId: brandId, ...navigations });
    const wide = common().filter((r) => r.brand === 'Wide');
    expect(byBrand.CountsAreExact).toBe(false);
    expect(Math.abs(byBrand.TotalItemCount - wide.length)).toBeLessThanOrEqual(
      tolerance(wide.length, wide.length),
    );
    expect(byBrand.StaticNavigation!.Brands.map((b) => b.Name)).toEqual(['Wide']);
    expect(byBrand.Items.every((i) => i.BrandId === brandId)).toBe(true);

    const home = (
      await search({ Query: 'common', ...navigations })
    ).StaticNavigation!.Categories.find((k) => k.Name === 'Home')!;
    const byCategory = await search({ Query: 'common', CategoryId: home.Id, Take: 1000 });
    const inHome = common().filter((r) => r.category[0] === 'Home');
    expect(Math.abs(byCategory.TotalItemCount - inHome.length)).toBeLessThanOrEqual(
      tolerance(inHome.length, inHome.length),
    );
    expect(idsOf(byCategory)).toEqual(
      relevanceOrder(inHome, (r) => r.commonInTitle).slice(0, 1000),
    );
  });

  it('estimates a query just over the limit, found so by counting to the limit first', async () => {
    const result = await search({ Query: 'middling', ...navigations, Take: 50 });
    const matches = catalog.filter((r) => r.middling);
    expect(result.CountsAreExact).toBe(false);
    expect(Math.abs(result.TotalItemCount - matches.length)).toBeLessThanOrEqual(
      tolerance(matches.length, matches.length),
    );
    const wide = matches.filter((r) => r.brand === 'Wide').length;
    expect(Math.abs(facet(result.StaticNavigation!.Brands, 'Wide') - wide)).toBeLessThanOrEqual(
      tolerance(wide, matches.length),
    );
    // No item matches in its title: the page is the second tier, by id.
    expect(idsOf(result)).toEqual(relevanceOrder(matches, () => false).slice(0, 50));
  });

  it('keeps counts exact when a filter brings the matches under the limit', async () => {
    const result = await search({ Query: 'common rare', ...navigations });
    const both = catalog.filter((r) => r.common && r.rare);
    expect(both.length).toBeLessThanOrEqual(LIMIT);
    expect(result.CountsAreExact).toBe(true);
    expect(result.TotalItemCount).toBe(both.length);
  });
});

/** Relevance above the limit: Title or Name matches first, then the others, each by id. */
const relevanceOrder = (matches: Generated[], inTitle: (r: Generated) => boolean) => [
  ...matches
    .filter(inTitle)
    .map((r) => r.id)
    .sort((a, b) => a - b),
  ...matches
    .filter((r) => !inTitle(r))
    .map((r) => r.id)
    .sort((a, b) => a - b),
];

describe('POST /private/catalog/items: pages above the exact limit', () => {
  const pages = async (Query: string, skips: number[], Take: number) => {
    const answers: SearchResultJson[] = [];
    for (const Skip of skips) answers.push(await search({ Query, Skip, Take }));
    return answers.map(idsOf);
  };

  it('pages a large first tier without repeating or skipping an item', async () => {
    const expected = relevanceOrder(
      catalog.filter((r) => r.common),
      (r) => r.commonInTitle,
    );
    const got = await pages('common', [0, 20, 40], 20);
    expect(got.flat()).toEqual(expected.slice(0, 60));
    // Across the tiers' boundary (800 items match in their title) and deep into the second.
    const titled = catalog.filter((r) => r.commonInTitle).length;
    expect((await pages('common', [titled - 10], 20))[0]).toEqual(
      expected.slice(titled - 10, titled + 10),
    );
    expect((await pages('common', [3000], 50))[0]).toEqual(expected.slice(3000, 3050));
  });

  it('pages a small first tier (read from the index) then a large second one', async () => {
    const expected = relevanceOrder(
      catalog.filter((r) => r.mixed),
      (r) => r.mixedInTitle,
    );
    expect(catalog.filter((r) => r.mixedInTitle)).toHaveLength(60);
    expect((await pages('mixed', [0], 100))[0]).toEqual(expected.slice(0, 100));
    expect((await pages('mixed', [50, 70], 20)).flat()).toEqual(expected.slice(50, 90));
  });

  it('orders by another property over every match', async () => {
    const result = await search({
      Query: 'common',
      OrderedPropertyName: 'Title',
      Skip: 100,
      Take: 30,
    });
    const expected = catalog
      .filter((r) => r.common)
      .sort((a, b) =>
        a.title.toLowerCase() < b.title.toLowerCase()
          ? -1
          : a.title.toLowerCase() > b.title.toLowerCase()
            ? 1
            : a.id - b.id,
      )
      .map((r) => r.id);
    expect(idsOf(result)).toEqual(expected.slice(100, 130));
    expect(result.CountsAreExact).toBe(false);
  });
});

describe('POST /private/catalog/items: estimates and tenants', () => {
  it("never counts or shows another tenant's items", async () => {
    const theirs = await searchOk(api, other, { Query: 'common', ...navigations });
    expect(theirs.CountsAreExact).toBe(true);
    expect(theirs.TotalItemCount).toBe(40);
    expect(theirs.StaticNavigation!.PriceRanges[0]!.Min).toBe(1000);
    const ours = await search({ Query: 'common', ...navigations, Take: 1000 });
    const mine = new Set(catalog.map((r) => r.id));
    expect(ours.Items.every((i) => mine.has(i.Id))).toBe(true);
    expect(ours.StaticNavigation!.PriceRanges[0]!.Max).toBeLessThan(1000);
  });
});
