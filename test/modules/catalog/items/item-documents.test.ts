// Items are read from documents the database keeps up to date: every change an item shows must
// reach its fetch and the lists at once, including names that live in other tables.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createItem,
  createPriceType,
  createTag,
  getItem,
} from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

async function listed(id: number) {
  const response = await api.call({ url: `${CATALOG}/items/search?itemIds=${id}`, tenant: acme });
  expectStatus(response, 200);
  return response.json<{ Results: Awaited<ReturnType<typeof getItem>>[] }>().Results[0]!;
}

describe('what an item shows from other tables', () => {
  it('shows a renamed tag under its new name', async () => {
    const tag = await createTag(api, acme, { Name: 'sale', Description: 'On sale' });
    const item = await createItem(api, acme, { Tags: [{ Id: tag.Id }] });
    const put = await api.call({
      method: 'PUT',
      url: `${CATALOG}/tag/${tag.Id}`,
      tenant: acme,
      body: { Name: 'clearance', Description: null },
    });
    expectStatus(put, 200);
    expect((await getItem(api, acme, item.Id)).Tags).toEqual([
      { Id: tag.Id, Name: 'clearance', Description: null },
    ]);
    expect((await listed(item.Id)).Tags[0]).toMatchObject({ Name: 'clearance' });
  });

  it("shows a price type's new symbol", async () => {
    const priceType = await createPriceType(api, acme, { PriceTypeSymbol: 'USD' });
    const item = await createItem(api, acme, {
      Prices: [{ NormalPrice: 5, PriceTypeId: priceType.Id }],
    });
    const put = await api.call({
      method: 'PUT',
      url: `${CATALOG}/pricetype/${priceType.Id}`,
      tenant: acme,
      body: { Description: priceType.Description, PriceTypeSymbol: '$' },
    });
    expectStatus(put, 200);
    expect((await getItem(api, acme, item.Id)).Prices[0]).toMatchObject({ PriceTypeSymbol: '$' });
  });

  it("shows an attribute type's new name", async () => {
    const type = await createAttributeType(api, acme, 'Colour');
    const item = await createItem(api, acme, {
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
    });
    const patch = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/dynamicattributetypes/${type.Id}`,
      tenant: acme,
      body: { Description: 'Color' },
    });
    expectStatus(patch, 200);
    expect((await getItem(api, acme, item.Id)).DynamicAttributes[0]).toMatchObject({
      TypeName: 'Color',
      Value: 'Red',
    });
  });

  it('shows the variant group it joined and left, and the prices replaced through their own route', async () => {
    const master = await createItem(api, acme);
    const variant = await createItem(api, acme);
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/items/${master.Id}/group`,
        tenant: acme,
        body: [variant.Id],
      }),
      200,
    );
    expect((await listed(variant.Id)).DefaultItemId).toBe(master.Id);
    expect((await getItem(api, acme, master.Id)).DefaultItemId).toBe(master.Id);
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/items/${master.Id}/ungroup`,
        tenant: acme,
      }),
      204,
    );
    expect((await getItem(api, acme, variant.Id)).DefaultItemId).toBeNull();

    const priceType = await createPriceType(api, acme);
    const prices = await api.call({
      method: 'PUT',
      url: `${CATALOG}/items/${master.Id}/prices`,
      tenant: acme,
      body: [{ NormalPrice: 12.5, DiscountPrice: 10, PriceTypeId: priceType.Id }],
    });
    expectStatus(prices, 200);
    expect((await listed(master.Id)).Prices).toEqual(prices.json());
  });
});

// The wire text of a document: compact JSON, everything outside ASCII as \u escapes (UTF-16 code
// units, so a surrogate pair above U+FFFF).
const compactAscii = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

describe('the text of a document', () => {
  it('is compact JSON', async () => {
    const item = await createItem(api, acme, { Name: 'plain', Rating: 4.5 });
    const fetched = await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme });
    expectStatus(fetched, 200);
    expect(fetched.body).toBe(compactAscii(fetched.json()));
  });

  it('sends text outside ASCII as escapes that read back as the same text, in fetches and lists', async () => {
    const text = {
      Name: 'Şık ayakkabı',
      ShortDescription: 'café, 👟 & "quotes" \\ \\u0041 \u2028',
      LongDescription: '漢字\nline\ttwo',
    };
    const priceType = await createPriceType(api, acme, { PriceTypeSymbol: '€' });
    const tag = await createTag(api, acme, { Name: 'İndirim', Description: 'Ünlü' });
    const item = await createItem(api, acme, {
      ...text,
      Prices: [{ NormalPrice: 5, PriceTypeId: priceType.Id }],
      Tags: [{ Id: tag.Id }],
    });
    expect(item).toMatchObject(text);

    const fetched = await api.call({ url: `${CATALOG}/item/${item.Id}`, tenant: acme });
    expectStatus(fetched, 200);
    expect(fetched.body).toMatch(/^[\x20-\x7e]*$/);
    expect(fetched.body).toContain('"Name":"\\u015e\\u0131k ayakkab\\u0131"');
    expect(fetched.body).toContain('\\ud83d\\udc5f');
    expect(fetched.body).toBe(compactAscii(fetched.json()));
    expect(fetched.json()).toMatchObject({
      ...text,
      Prices: [{ PriceTypeSymbol: '€' }],
      Tags: [{ Name: 'İndirim', Description: 'Ünlü' }],
    });

    const list = await api.call({
      url: `${CATALOG}/items/search?itemIds=${item.Id}`,
      tenant: acme,
    });
    expect(list.body).toMatch(/^[\x20-\x7e]*$/);
    expect(await listed(item.Id)).toMatchObject(text);
  });
});
