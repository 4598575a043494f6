// The navigation counts of POST /private/catalog/items come from each item's facet arrays (tag
// ids, attribute value ids, prices), which the database keeps with the item's document. After
// every kind of write that changes them (item create/update, its prices, its attributes, tag
// mappings, item delete), the navigations must equal a brute-force count over the items as
// GET returns them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createItem,
  createPriceType,
  createTag,
  type ItemJson,
  type Page,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { navigationCounts, navigationOf, searchOk } from './search-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let items: ItemJson[];
let tags: number[];
let prices: number[];
let color: number;
let size: number;

beforeAll(async () => {
  tags = [];
  for (let k = 0; k < 3; k++) tags.push((await createTag(api, acme)).Id);
  prices = [
    (await createPriceType(api, acme, { PriceTypeSymbol: '$' })).Id,
    (await createPriceType(api, acme, { PriceTypeSymbol: '€' })).Id,
  ];
  color = (await createAttributeType(api, acme, 'Color')).Id;
  size = (await createAttributeType(api, acme, 'Size')).Id;
  items = [];
  for (let k = 0; k < 4; k++)
    items.push(
      await createItem(api, acme, {
        Title: `Facet item ${k}`,
        Tags: [{ Id: tags[k % 3]! }],
        Prices: [
          { PriceTypeId: prices[0]!, NormalPrice: 10 + k, DiscountPrice: k === 2 ? 5 : null },
        ],
        DynamicAttributes: [{ TypeId: color, Value: k % 2 ? 'Red' : 'Blue' }],
      }),
    );
});

/** Tags, price ranges and attribute values counted over the active items as GET lists them. */
async function bruteForce() {
  const listed = await api.call({ url: `${CATALOG}/items?take=1000`, tenant: acme });
  expectStatus(listed, 200);
  return navigationCounts(
    listed.json<Page<ItemJson>>().Results.filter((i) => i.ItemStatusId !== 2),
  );
}

async function expectNavigationsRight() {
  const result = await searchOk(api, acme, {
    Take: 1000,
    IncludeStaticNavigation: true,
    IncludeDynamicNavigation: true,
  });
  const expected = await bruteForce();
  expect(navigationOf(result)).toEqual(expected);
  return expected;
}

const call = async (method: string, url: string, body?: unknown) => {
  const response = await api.call({ method, url: `${CATALOG}${url}`, tenant: acme, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
};

describe('navigation counts follow the writes', () => {
  it('after the items are created', async () => {
    const expected = await expectNavigationsRight();
    expect(expected.tags.reduce((sum, t) => sum + t.n, 0)).toBe(4);
  });

  it('after an item’s prices are replaced (a price type added, a discount set)', async () => {
    await call('PUT', `/items/${items[0]!.Id}/prices`, [
      { PriceTypeId: prices[0]!, NormalPrice: 99, DiscountPrice: 1 },
      { PriceTypeId: prices[1]!, NormalPrice: 42 },
    ]);
    const expected = await expectNavigationsRight();
    expect(expected.prices).toEqual([
      { id: prices[0]!, min: 1, max: 13 },
      { id: prices[1]!, min: 42, max: 42 },
    ]);
  });

  it('after an item’s prices are emptied', async () => {
    await call('PUT', `/items/${items[0]!.Id}/prices`, []);
    const expected = await expectNavigationsRight();
    expect(expected.prices.map((p) => p.id)).toEqual([prices[0]!]);
  });

  it('after an item’s attributes are replaced', async () => {
    await call('PUT', `/items/${items[1]!.Id}/dynamicattributes`, [
      { TypeId: color, Value: 'Green' },
      { TypeId: size, Value: 'XL' },
    ]);
    const expected = await expectNavigationsRight();
    expect(expected.values).toHaveLength(4);
  });

  it('after a tag is mapped and another unmapped', async () => {
    await call('POST', '/itemtagmapping', { ItemId: items[2]!.Id, TagId: tags[0]! });
    await call('DELETE', `/itemtagmapping?itemId=${items[0]!.Id}&tagId=${tags[0]!}`);
    await expectNavigationsRight();
  });

  it('after an item update that replaces its tags', async () => {
    await call('PATCH', `/item/${items[3]!.Id}`, { Tags: [{ Id: tags[1]! }, { Id: tags[2]! }] });
    await expectNavigationsRight();
  });

  it('after an item is made passive and another deleted', async () => {
    await call('PATCH', `/item/${items[2]!.Id}`, { ItemStatusId: 2 });
    await call('DELETE', `/item/${items[1]!.Id}`);
    const expected = await expectNavigationsRight();
    expect(expected.tags.reduce((sum, t) => sum + t.n, 0)).toBe(2);
  });
});
