// POST /private/catalog/items (contract §5.3): every filter alone and combined, and both
// navigations, checked against a brute-force computation over the items fetched one by one; the
// orderings with their id tie-break; paging that neither repeats nor skips under inserts.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { PREPARED_SHAPES } from '../../../../src/modules/catalog/search/search-service.ts';
import { idsOf, searchOk, type SearchResultJson } from './search-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let all: ItemJson[];
const ids: Record<string, number> = {};
const names = new Map<string, string>();

const COLORS = ['Red', 'Blue', 'Green'];
const SIZES = ['S', 'M'];

beforeAll(async () => {
  const root = await createCategory(api, acme);
  const child = await createCategory(api, acme, { ParentCategoryId: root.Id });
  const grandchild = await createCategory(api, acme, { ParentCategoryId: child.Id });
  const other = await createCategory(api, acme);
  const brands = [await createBrand(api, acme), await createBrand(api, acme)];
  const tags = [await createTag(api, acme), await createTag(api, acme), await createTag(api, acme)];
  const prices = [
    await createPriceType(api, acme, { PriceTypeSymbol: '$' }),
    await createPriceType(api, acme, { PriceTypeSymbol: '€' }),
  ];
  const color = await createAttributeType(api, acme, 'Color');
  const size = await createAttributeType(api, acme, 'Size');
  Object.assign(ids, {
    root: root.Id,
    child: child.Id,
    grandchild: grandchild.Id,
    other: other.Id,
    brand0: brands[0]!.Id,
    brand1: brands[1]!.Id,
    tag0: tags[0]!.Id,
    tag1: tags[1]!.Id,
    tag2: tags[2]!.Id,
    price0: prices[0]!.Id,
    price1: prices[1]!.Id,
    color: color.Id,
    size: size.Id,
  });
  const categories = [root.Id, child.Id, grandchild.Id, other.Id, null];
  for (const c of [root, child, grandchild, other]) names.set(`c${c.Id}`, c.Name);
  for (const b of brands) names.set(`b${b.Id}`, b.Name);
  for (let k = 0; k < 24; k++) {
    await createItem(api, acme, {
      Title: `${k % 2 ? 'Alpha widget' : 'Beta gadget'} ${String(k).padStart(2, '0')}`,
      CategoryId: categories[k % 5],
      BrandId: [brands[0]!.Id, brands[1]!.Id, null][k % 3],
      ItemStatusId: k % 7 === 6 ? 2 : 1,
      Rating: k % 4 ? ((k * 7) % 10) / 2 : null,
      Tags: tags.filter((_, bit) => (k >> bit) & 1).map((t) => ({ Id: t.Id })),
      Prices: [
        { PriceTypeId: prices[0]!.Id, NormalPrice: 10 + ((k * 5) % 17) },
        ...(k % 2
          ? [
              {
                PriceTypeId: prices[1]!.Id,
                NormalPrice: 30 + k,
                DiscountPrice: k % 4 === 1 ? 20 + k : null,
              },
            ]
          : []),
      ],
      DynamicAttributes: [
        { TypeId: color.Id, Value: COLORS[k % 3] },
        ...(k % 5 ? [{ TypeId: size.Id, Value: SIZES[k % 2] }] : []),
      ],
    });
  }
  const listed = await api.call({ url: `${CATALOG}/items?take=1000`, tenant: acme });
  all = listed.json<Page<ItemJson>>().Results;
  // Two variants under the first item.
  const grouped = await api.call({
    method: 'POST',
    url: `${CATALOG}/items/${all[0]!.Id}/group`,
    tenant: acme,
    body: [all[1]!.Id, all[2]!.Id],
  });
  expectStatus(grouped, 200);
  all = (await api.call({ url: `${CATALOG}/items?take=1000`, tenant: acme })).json<Page<ItemJson>>()
    .Results;
});

type Criteria = Record<string, unknown>;

/** The search, computed by brute force over the fetched items. */
function expected(
  criteria: Criteria,
): Omit<SearchResultJson, 'Items' | 'DefaultImages'> & { ids: number[] } {
  const under = (categoryId: number | null, root: number): boolean =>
    categoryId === root ||
    (categoryId === ids.child && under(ids.root!, root)) ||
    (categoryId === ids.grandchild && under(ids.child!, root));
  const effective = (p: ItemJson['Prices'][number]) => p.DiscountPrice ?? p.NormalPrice;
  const matching = all.filter((item) => {
    if (item.ItemStatusId === 2 && !criteria.IncludePassiveItems) return false;
    if (
      criteria.IncludeOnlyMasterItems &&
      item.DefaultItemId !== null &&
      item.DefaultItemId !== item.Id
    )
      return false;
    if (criteria.Query === 'widget' && !item.Title.includes('widget')) return false;
    if (criteria.CategoryId !== undefined && !under(item.CategoryId, criteria.CategoryId as number))
      return false;
    if (criteria.BrandId !== undefined && item.BrandId !== criteria.BrandId) return false;
    if (criteria.TagId !== undefined && !item.Tags.some((t) => t.Id === criteria.TagId))
      return false;
    if (criteria.MinPrice !== undefined || criteria.MaxPrice !== undefined) {
      const inRange = item.Prices.some(
        (p) =>
          (criteria.PriceTypeId === undefined || p.PriceTypeId === criteria.PriceTypeId) &&
          effective(p) >= ((criteria.MinPrice as number | undefined) ?? -Infinity) &&
          effective(p) <= ((criteria.MaxPrice as number | undefined) ?? Infinity),
      );
      if (!inRange) return false;
    }
    for (const a of (criteria.DynamicAttributes ?? []) as { TypeId: number; Value: string }[])
      if (
        !item.DynamicAttributes.some(
          (d) => d.TypeId === a.TypeId && d.Value.toLowerCase() === a.Value.toLowerCase(),
        )
      )
        return false;
    return true;
  });
  const facets = (keys: [number, string][]) => {
    const counts = new Map<number, { Id: number; Name: string; Count: number }>();
    for (const [id, name] of keys) {
      const facet = counts.get(id) ?? { Id: id, Name: name, Count: 0 };
      facet.Count++;
      counts.set(id, facet);
    }
    return [...counts.values()].sort((a, b) => b.Count - a.Count || a.Id - b.Id);
  };
  const priceTypes = new Map<number, { symbol: string; values: number[] }>();
  for (const p of matching.flatMap((i) => i.Prices)) {
    const entry = priceTypes.get(p.PriceTypeId) ?? { symbol: p.PriceTypeSymbol, values: [] };
    entry.values.push(effective(p));
    priceTypes.set(p.PriceTypeId, entry);
  }
  const attributes = new Map<number, { name: string; values: [number, string][] }>();
  for (const d of matching.flatMap((i) => i.DynamicAttributes)) {
    const entry = attributes.get(d.TypeId) ?? { name: d.TypeName, values: [] };
    entry.values.push([d.TypeValueId, d.Value]);
    attributes.set(d.TypeId, entry);
  }
  return {
    ids: matching.map((i) => i.Id),
    TotalItemCount: matching.length,
    CountsAreExact: true,
    StaticNavigation: {
      // A category's own matches (Count), and those of its subtree (CountWithSubcategories:
      // what choosing it gives).
      Categories: facets(
        matching
          .filter((i) => i.CategoryId !== null)
          .map((i) => [i.CategoryId!, names.get(`c${i.CategoryId}`)!]),
      ).map((facet) => ({
        ...facet,
        CountWithSubcategories: matching.filter((i) => under(i.CategoryId, facet.Id)).length,
      })),
      Brands: facets(
        matching
          .filter((i) => i.BrandId !== null)
          .map((i) => [i.BrandId!, names.get(`b${i.BrandId}`)!]),
      ),
      Tags: facets(matching.flatMap((i) => i.Tags.map((t): [number, string] => [t.Id, t.Name]))),
      PriceRanges: [...priceTypes.entries()]
        .sort(([a], [b]) => a - b)
        .map(([id, { symbol, values }]) => ({
          PriceTypeId: id,
          PriceTypeSymbol: symbol,
          Min: Math.min(...values),
          Max: Math.max(...values),
        })),
    },
    DynamicNavigation: [...attributes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([id, { name, values }]) => ({
        TypeId: id,
        TypeName: name,
        Values: facets(values).map((f) => ({ TypeValueId: f.Id, Value: f.Name, Count: f.Count })),
      })),
  };
}

const withNavigation = {
  Take: 1000,
  IncludeStaticNavigation: true,
  IncludeDynamicNavigation: true,
};

describe('POST /private/catalog/items: filters and navigation counts', () => {
  const cases: [string, () => Criteria][] = [
    ['no criterion', () => ({})],
    ['Query', () => ({ Query: 'widget' })],
    ['CategoryId with its subcategories', () => ({ CategoryId: ids.root })],
    ['CategoryId of a subcategory', () => ({ CategoryId: ids.child })],
    ['BrandId', () => ({ BrandId: ids.brand0 })],
    ['TagId', () => ({ TagId: ids.tag1 })],
    [
      'a price range of a price type',
      () => ({ PriceTypeId: ids.price0, MinPrice: 14, MaxPrice: 20 }),
    ],
    ['a price range of a discounted price type', () => ({ PriceTypeId: ids.price1, MaxPrice: 40 })],
    ['MinPrice of any price type', () => ({ MinPrice: 45 })],
    [
      'an attribute value (any case)',
      () => ({ DynamicAttributes: [{ TypeId: ids.color, Value: 'RED' }] }),
    ],
    [
      'two attribute values (AND)',
      () => ({
        DynamicAttributes: [
          { TypeId: ids.color, Value: 'Blue' },
          { TypeId: ids.size, Value: 'M' },
        ],
      }),
    ],
    ['IncludeOnlyMasterItems', () => ({ IncludeOnlyMasterItems: true })],
    ['IncludePassiveItems', () => ({ IncludePassiveItems: true })],
    [
      'all combined',
      () => ({
        Query: 'widget',
        CategoryId: ids.root,
        BrandId: ids.brand1,
        TagId: ids.tag0,
        PriceTypeId: ids.price0,
        MinPrice: 0,
        MaxPrice: 100,
        IncludePassiveItems: true,
        IncludeOnlyMasterItems: true,
      }),
    ],
    [
      'category, tag and attribute',
      () => ({
        CategoryId: ids.root,
        TagId: ids.tag0,
        DynamicAttributes: [{ TypeId: ids.color, Value: 'green' }],
      }),
    ],
  ];

  it.each(cases)('filters by %s, with exact counts', async (_, criteria) => {
    const body = criteria();
    const want = expected(body);
    const got = await searchOk(api, acme, {
      ...body,
      ...withNavigation,
      OrderedPropertyName: 'DateAdded',
    });
    expect(idsOf(got)).toEqual(want.ids);
    expect(got.TotalItemCount).toBe(want.TotalItemCount);
    expect(got.StaticNavigation).toEqual(want.StaticNavigation);
    expect(got.DynamicNavigation).toEqual(want.DynamicNavigation);
  });

  it('has cases that select something and that differ', () => {
    const sizes = cases.map(([, c]) => expected(c()).TotalItemCount);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    expect(new Set(sizes).size).toBeGreaterThan(5);
  });

  it('sends null for a navigation not asked for', async () => {
    const got = await searchOk(api, acme, { IncludeStaticNavigation: true });
    expect(got.StaticNavigation).not.toBeNull();
    expect(got.DynamicNavigation).toBeNull();
    const neither = await searchOk(api, acme, {});
    expect(neither.StaticNavigation).toBeNull();
    expect(neither.DynamicNavigation).toBeNull();
  });
});

// The service prepares each statement shape (search-service.ts): PostgreSQL switches a shape to
// its generic plan after five runs on a connection, and shapes past PREPARED_SHAPES run unprepared.
describe('POST /private/catalog/items: prepared statement shapes', () => {
  const check = async (body: Criteria) => {
    const want = expected(body);
    const got = await searchOk(api, acme, { ...body, ...withNavigation });
    expect(idsOf(got).sort((a, b) => a - b)).toEqual([...want.ids].sort((a, b) => a - b));
    expect(got.TotalItemCount).toBe(want.TotalItemCount);
    expect(got.StaticNavigation).toEqual(want.StaticNavigation);
    expect(got.DynamicNavigation).toEqual(want.DynamicNavigation);
  };

  it('answers one shape with other values the same after many runs (generic plans)', async () => {
    for (let run = 0; run < 14; run++)
      await check({
        BrandId: run % 2 ? ids.brand0 : ids.brand1,
        TagId: [ids.tag0, ids.tag1, ids.tag2][run % 3],
        PriceTypeId: run % 4 < 2 ? ids.price0 : ids.price1,
        MinPrice: run % 5,
        MaxPrice: 40 + run,
      });
  });

  it('answers every shape, past the prepared ones too', async () => {
    const optional: Criteria[] = [
      { Query: 'widget' },
      { CategoryId: ids.root },
      { BrandId: ids.brand1 },
      { TagId: ids.tag0 },
      { PriceTypeId: ids.price0, MinPrice: 12, MaxPrice: 24 },
      { DynamicAttributes: [{ TypeId: ids.color, Value: 'blue' }] },
      { IncludePassiveItems: true },
      { IncludeOnlyMasterItems: true },
    ];
    const shapes = 2 ** optional.length;
    expect(shapes).toBeGreaterThan(PREPARED_SHAPES * 2);
    for (let mask = 0; mask < shapes; mask++)
      await check(
        optional.reduce<Criteria>(
          (body, criterion, bit) => ((mask >> bit) & 1 ? { ...body, ...criterion } : body),
          {},
        ),
      );
  });
});

describe('POST /private/catalog/items: ordering', () => {
  const active = () => all.filter((i) => i.ItemStatusId === 1);
  const byKey = (key: (i: ItemJson) => number | string | null, desc: boolean) =>
    [...active()]
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x === y) return a.Id - b.Id;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (desc ? -1 : 1);
      })
      .map((i) => i.Id);
  const price = (i: ItemJson) => {
    const p = i.Prices.find((x) => x.PriceTypeId === ids.price1);
    return p ? (p.DiscountPrice ?? p.NormalPrice) : null;
  };

  it.each([
    ['Title', 'Asc', (i: ItemJson) => i.Title.toLowerCase()],
    ['title', 'desc', (i: ItemJson) => i.Title.toLowerCase()],
    ['Rating', 'Desc', (i: ItemJson) => i.Rating],
    ['RATING', 'Asc', (i: ItemJson) => i.Rating],
    ['Price', 'Asc', price],
    ['Price', 'Desc', price],
    ['DateAdded', 'Desc', (i: ItemJson) => i.Id],
  ] as const)('orders by %s %s, nulls last, ties by id', async (name, direction, key) => {
    const got = await searchOk(api, acme, {
      OrderedPropertyName: name,
      OrderBy: direction,
      PriceTypeId: ids.price1,
      Take: 1000,
    });
    expect(idsOf(got)).toEqual(byKey(key, direction.toLowerCase() === 'desc'));
  });

  it('orders by id without a Query or an ordering', async () => {
    expect(idsOf(await searchOk(api, acme, { Take: 1000 }))).toEqual(active().map((i) => i.Id));
  });
});

describe('POST /private/catalog/items: paging', () => {
  it.each([
    ['by relevance', { Query: 'gadget' }],
    ['by DateAdded', { Query: 'gadget', OrderedPropertyName: 'DateAdded' }],
    ['by id', {}],
  ])('neither repeats nor skips an item %s while items are added', async (_, criteria) => {
    const before = await searchOk(api, acme, { ...criteria, Take: 1000 });
    const seen: number[] = [];
    for (let skip = 0; skip < before.TotalItemCount; skip += 4) {
      const page = await searchOk(api, acme, { ...criteria, Skip: skip, Take: 4 });
      seen.push(...idsOf(page));
      await createItem(api, acme, { Title: `Beta gadget extra ${skip}` });
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, before.TotalItemCount)).toEqual(idsOf(before));
  });
});
