// Items (contract §5.3): partial update (Id in the path or the body).
import { describe, expect, it } from 'vitest';
import { createItem, getItem, sleep, type ItemJson } from '../catalog-fixtures.ts';
import {
  expectError,
  expectFieldError,
  expectStatus,
  expectUnknownField,
} from '../../../support/expectations.ts';
import { useItemsApi, api, acme, ITEM, sku, patch, fullItemBody } from './items-fixtures.ts';

useItemsApi();

describe('PATCH /private/catalog/item/{id}', () => {
  it('changes only the fields sent', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, { Name: 'Renamed', InStock: false });
    expectStatus(response, 200);
    const patched = response.json<ItemJson>();
    expect(patched).toEqual({
      ...item,
      Name: 'Renamed',
      InStock: false,
      DateModified: patched.DateModified,
    });
    expect(await getItem(api, acme, item.Id)).toEqual(patched);
  });

  it('clears a nullable field sent as null and keeps the others', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, {
      Model: null,
      CategoryId: null,
      BrandId: null,
      Rating: null,
      SKU: null,
      LongDescription: null,
    });
    expectStatus(response, 200);
    const patched = response.json<ItemJson>();
    // Cleared means null: not 0 for a number, not "" for a text.
    expect(patched).toMatchObject({
      Model: null,
      CategoryId: null,
      BrandId: null,
      Rating: null,
      SKU: null,
      LongDescription: null,
    });
    expect(patched).toMatchObject({
      Title: item.Title,
      Name: item.Name,
      ShortDescription: item.ShortDescription,
      InStock: true,
      ItemStatusId: 2,
    });
    expect(patched.Prices).toEqual(item.Prices);
  });

  it('changes nothing but DateModified for an empty body', async () => {
    const item = await createItem(api, acme, { Name: 'Unchanged', SKU: sku() });
    const response = await patch(item.Id, {});
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      ...item,
      DateModified: response.json<ItemJson>().DateModified,
    });
  });

  it('replaces a collection only when it is sent', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const response = await patch(item.Id, { Tags: [] });
    expect(response.json<ItemJson>().Tags).toEqual([]);
    expect(response.json<ItemJson>().Prices).toEqual(item.Prices);
    expect(response.json<ItemJson>().DynamicAttributes).toEqual(item.DynamicAttributes);
  });

  it('clears every nullable field sent as null', async () => {
    const { body } = await fullItemBody();
    const item = await createItem(api, acme, body);
    const nulls = {
      SKU: null,
      RFID: null,
      UUID: null,
      Name: null,
      Model: null,
      ShortDescription: null,
      LongDescription: null,
      CategoryId: null,
      BrandId: null,
      PublicWebLink: null,
      Rating: null,
    };
    const response = await patch(item.Id, nulls);
    expectStatus(response, 200);
    expect(response.json()).toMatchObject(nulls);
    expect(await getItem(api, acme, item.Id)).toMatchObject(nulls);
  });

  it('refuses null for a field that is not nullable', async () => {
    const item = await createItem(api, acme);
    expectFieldError(await patch(item.Id, { Title: null }), 'Title');
    expectFieldError(await patch(item.Id, { InStock: null }), 'InStock');
    expectFieldError(await patch(item.Id, { ItemStatusId: null }), 'ItemStatusId');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('rejects unknown fields, bad values and unknown references with 400', async () => {
    const item = await createItem(api, acme);
    expectUnknownField(await patch(item.Id, { Colour: 'red' }), 'Colour');
    expectFieldError(await patch(item.Id, { Title: 't'.repeat(257) }), 'Title');
    expectFieldError(await patch(item.Id, { BrandId: 999_999 }), 'BrandId');
    expectError(await patch(item.Id, { Id: item.Id + 1 }), 400, 'IdMismatch');
    expect(await getItem(api, acme, item.Id)).toEqual(item);
  });

  it('answers 404 for an unknown item', async () => {
    expectError(await patch(999_999, { Name: 'x' }), 404, 'NotFound');
  });

  it('keeps DateAdded and advances DateModified', async () => {
    const item = await createItem(api, acme);
    await sleep(10);
    const patched = (await patch(item.Id, { Name: 'Later' })).json<ItemJson>();
    expect(patched.DateAdded).toBe(item.DateAdded);
    expect(Date.parse(patched.DateModified)).toBeGreaterThan(Date.parse(item.DateModified));
  });
});

describe('PATCH /private/catalog/item (Id in the body)', () => {
  const patchBody = (body: unknown) => api.call({ method: 'PATCH', url: ITEM, tenant: acme, body });

  it('changes only the fields sent of the item the body names', async () => {
    const item = await createItem(api, acme, { Name: 'Kept', Model: 'M1' });
    const response = await patchBody({ Id: item.Id, Model: 'M2' });
    expectStatus(response, 200);
    expect(response.json<ItemJson>()).toMatchObject({
      Title: item.Title,
      Name: 'Kept',
      Model: 'M2',
    });
  });

  it('answers 400 IdRequired without an Id and 404 for an unknown one', async () => {
    expectError(await patchBody({ Name: 'x' }), 400, 'IdRequired');
    expectError(await patchBody({ Id: 999_999, Name: 'x' }), 404, 'NotFound');
  });
});
