// Item documents are built by the database (migrations 0005 and 0008) and passed through as
// text; every field combination the API can store must come out exactly in the shape of the
// Item schema the OpenAPI document shows (no field missing, none extra, right types and formats),
// on the fetch, the create, update and patch answers, and in the lists.
import { describe, expect, it } from 'vitest';
import { Item, ItemList } from '../../../../src/modules/catalog/items/item-schemas.ts';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import { expectWireShape } from '../../../support/wire-shape.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createPriceType,
  createTag,
  unique,
  type ItemJson,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

// Text that JSON must escape or that is outside ASCII (the documents are ASCII with \u escapes):
// quotes, backslashes, control characters, line and paragraph separators, accents (composed and
// combining), CJK, right-to-left, emoji (surrogate pairs), and the longest short text.
const TEXTS = [
  'Plain',
  'Ünïcödé café e\u0301 名前 עברית 🚀👩‍💻',
  'say "hi" \\ back\\slash / slash',
  'tab\tnew\nline\rreturn \u0001\u001f\u007f',
  'sep\u2028line\u2029para <b>&amp;</b>',
  'x'.repeat(256),
];

const sentItems: { id: number; sent: Record<string, unknown> }[] = [];

/** Checks one answer, the fetch and the search of an item, and that the sent fields came back. */
async function expectItem(
  answer: { statusCode: number; body: string },
  sent: Record<string, unknown>,
) {
  const item = JSON.parse(answer.body) as ItemJson;
  expectWireShape(Item, item, 'the answer');
  const fetched = await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme });
  expectStatus(fetched, 200);
  expectWireShape(Item, fetched.json(), `GET item/${item.Id}`);
  const searched = await api.call({
    url: `${CATALOG}/items/search?itemIds=${item.Id}`,
    tenant: acme,
  });
  expectStatus(searched, 200);
  expectWireShape(ItemList, searched.json(), `search itemIds=${item.Id}`);
  const fields = fetched.json<Record<string, unknown>>();
  for (const key of [
    'Title',
    'SKU',
    'RFID',
    'UUID',
    'Name',
    'Model',
    'ShortDescription',
    'LongDescription',
    'ItemStatusId',
    'CategoryId',
    'BrandId',
    'InStock',
    'PublicWebLink',
    'Rating',
  ])
    if (key in sent) expect(fields[key], key).toEqual(sent[key]);
  sentItems.push({ id: item.Id, sent });
  return fetched.json<ItemJson>();
}

async function create(body: Record<string, unknown>) {
  const response = await api.call({ method: 'POST', url: `${CATALOG}/item`, tenant: acme, body });
  expectStatus(response, 201);
  return expectItem(response, body);
}

describe('item documents match the Item schema', () => {
  it('with only the required Title (every optional field absent)', async () => {
    const item = await create({ Title: 'Bare' });
    expect(item).toMatchObject({ SKU: null, Prices: [], DynamicAttributes: [], Tags: [] });
  });

  it('with every nullable field null', async () => {
    await create({
      Title: 'Nulls',
      SKU: null,
      RFID: null,
      UUID: null,
      Name: null,
      Model: null,
      ShortDescription: null,
      LongDescription: null,
      CategoryId: null,
      BrandId: null,
      DefaultItemId: null,
      PublicWebLink: null,
      Rating: null,
      Prices: [],
      DynamicAttributes: [],
      Tags: [],
    });
  });

  it('with every text field in every kind of text', async () => {
    for (const [i, text] of TEXTS.entries()) {
      const other = TEXTS[(i + 1) % TEXTS.length]!;
      await create({
        Title: text,
        SKU: `${unique('sku')} ${other}`.slice(0, 256),
        RFID: other,
        UUID: text,
        Name: other,
        Model: text,
        ShortDescription: `${text} ${other}`,
        LongDescription: `${other}\n${text}`.repeat(10),
        PublicWebLink: `https://example.com/${encodeURIComponent(text)}`.slice(0, 2048),
        ItemStatusId: (i % 2) + 1,
        InStock: i % 2 === 0,
        Rating: [0, 5, 2.5, 4.75, 1, 3.3][i],
      });
    }
  });

  it('with every kind of price: no, null or equal discount, zero, fractions, the largest', async () => {
    const euro = await createPriceType(api, acme, { PriceTypeSymbol: '€' });
    const dollar = await createPriceType(api, acme, { PriceTypeSymbol: 'US "$"' });
    const dirham = await createPriceType(api, acme, { PriceTypeSymbol: 'د.إ' });
    const item = await create({
      Title: 'Priced',
      Prices: [
        { NormalPrice: 0, PriceTypeId: euro.Id },
        { NormalPrice: 12.3456, DiscountPrice: 0.0001, PriceTypeId: dollar.Id },
        { NormalPrice: 9_999_999_999.99, DiscountPrice: 9_999_999_999.99, CurrencyId: dirham.Id },
      ],
    });
    expect(item.Prices.map((p) => [p.NormalPrice, p.DiscountPrice])).toEqual([
      [0, null],
      [12.3456, 0.0001],
      [9_999_999_999.99, 9_999_999_999.99],
    ]);
    await create({
      Title: 'Discounted',
      Prices: [{ NormalPrice: 5, DiscountPrice: null, PriceTypeId: euro.Id }],
    });
  });

  it('with attributes set by value and by value id, and tags with and without a description', async () => {
    const colour = await createAttributeType(api, acme, unique('Farbe 🎨 "Ton"'));
    const size = await createAttributeType(api, acme, unique('Größe'));
    const first = await create({
      Title: 'Attributed',
      DynamicAttributes: [
        { TypeId: colour.Id, Value: 'Rot \\ "red" 赤' },
        { TypeId: size.Id, Value: 'XL\n' },
      ],
    });
    const red = first.DynamicAttributes.find((a) => a.TypeId === colour.Id)!;
    const plain = await createTag(api, acme, { Description: null });
    const described = await createTag(api, acme, {
      Name: unique('Étiquette 🏷'),
      Description: 'Säle "now"\t\u0003',
    });
    const category = await createCategory(api, acme, { Name: unique('Kategorie ✓') });
    const brand = await createBrand(api, acme, unique('Marke ™'));
    const item = await create({
      Title: 'Everything',
      CategoryId: category.Id,
      BrandId: brand.Id,
      DynamicAttributes: [{ TypeId: colour.Id, TypeValueId: red.TypeValueId, Value: null }],
      Tags: [{ Id: plain.Id }, { Id: described.Id }],
    });
    expect(item.Tags.map((t) => t.Description)).toContain(null);
    expect(item.DynamicAttributes[0]!.Value).toBe('Rot \\ "red" 赤');
  });

  it('for default items and variants, after a PUT and after a PATCH that clears fields', async () => {
    const defaultItem = await create({ Title: 'Default' });
    const variant = await create({ Title: 'Variant', DefaultItemId: defaultItem.Id });
    expect(variant.DefaultItemId).toBe(defaultItem.Id);
    const again = await api.call({ url: `${CATALOG}/item/${defaultItem.Id}`, tenant: acme });
    expectWireShape(Item, again.json(), 'the default item of a group');
    expect(again.json<ItemJson>().DefaultItemId).toBe(defaultItem.Id);

    const putBody = { Title: 'Put ✓', SKU: unique('put'), Rating: 1.5, InStock: true };
    const put = await api.call({
      method: 'PUT',
      url: `${CATALOG}/item/${variant.Id}`,
      tenant: acme,
      body: putBody,
    });
    expectStatus(put, 200);
    await expectItem(put, putBody);

    const patchBody = { SKU: null, Rating: null, ShortDescription: 'Patched 🩹', ItemStatusId: 2 };
    const patch = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${variant.Id}`,
      tenant: acme,
      body: patchBody,
    });
    expectStatus(patch, 200);
    await expectItem(patch, patchBody);
  });

  it('in every page of the list and of the search', async () => {
    expect(sentItems.length).toBeGreaterThan(10);
    for (const url of [`${CATALOG}/items`, `${CATALOG}/items/search`]) {
      const seen = new Set<number>();
      for (let skip = 0; ; skip += 4) {
        const page = await api.call({ url: `${url}?skip=${skip}&take=4`, tenant: acme });
        expectStatus(page, 200);
        const body = page.json<{ Results: ItemJson[]; TotalCount: number }>();
        expectWireShape(ItemList, body, `${url}?skip=${skip}`);
        for (const item of body.Results) seen.add(item.Id);
        if (body.Results.length === 0) break;
      }
      expect([...seen].sort()).toEqual([...new Set(sentItems.map((s) => s.id))].sort());
    }
  });

  it('is a check that fails on a field too many, a field missing or a wrong type', async () => {
    const id = sentItems[0]!.id;
    const item = (await api.call({ url: `${CATALOG}/item/${id}`, tenant: acme })).json<
      Record<string, unknown>
    >();
    expect(() => expectWireShape(Item, { ...item, Extra: 1 })).toThrow();
    const { LikeCount: _, ...withoutLikes } = item;
    expect(() => expectWireShape(Item, withoutLikes)).toThrow();
    expect(() =>
      expectWireShape(Item, { ...item, Tags: [{ Id: 1, Name: 'x', Description: null, More: 1 }] }),
    ).toThrow();
    expect(() => expectWireShape(Item, { ...item, Rating: '4.5' })).toThrow();
  });
});
