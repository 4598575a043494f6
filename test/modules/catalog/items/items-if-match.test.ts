// Items (contract §5.3): ETag/If-Match on item writes, and concurrent updates of one item.
import { describe, expect, it } from 'vitest';
import {
  CATALOG,
  createItem,
  createPriceType,
  getItem,
  itemEtag,
  type ItemJson,
} from '../catalog-fixtures.ts';
import { etagOf, expectError, expectStatus } from '../../../support/expectations.ts';
import { useItemsApi, api, acme, put, patch, remove, fetch } from './items-fixtures.ts';

useItemsApi();

describe('If-Match on item writes', () => {
  it('accepts the current ETag, its weak form and *', async () => {
    const item = await createItem(api, acme);
    let etag = await itemEtag(api, acme, item.Id);
    let response = await put(item.Id, { Title: 'One' }, { 'if-match': etag });
    expectStatus(response, 200);
    etag = etagOf(response);
    response = await patch(item.Id, { Name: 'Two' }, { 'if-match': `W/${etag}` });
    expectStatus(response, 200);
    response = await patch(item.Id, { Name: 'Three' }, { 'if-match': '*' });
    expectStatus(response, 200);
    response = await patch(
      item.Id,
      { Name: 'Four' },
      { 'if-match': `"nope", ${etagOf(response)}` },
    );
    expectStatus(response, 200);
  });

  it('answers 412 to a PUT with a stale ETag and changes nothing', async () => {
    const item = await createItem(api, acme, { Name: 'Original' });
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await patch(item.Id, { Name: 'Changed' }), 200);
    const response = await put(item.Id, { Title: 'Stale write' }, { 'if-match': stale });
    expectError(response, 412, 'PreconditionFailed');
    expect(await getItem(api, acme, item.Id)).toMatchObject({
      Title: item.Title,
      Name: 'Changed',
    });
  });

  it('answers 412 to a PATCH with a stale ETag', async () => {
    const item = await createItem(api, acme);
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await put(item.Id, { Title: 'Newer' }), 200);
    expectError(
      await patch(item.Id, { Name: 'x' }, { 'if-match': stale }),
      412,
      'PreconditionFailed',
    );
    expect((await getItem(api, acme, item.Id)).Name).toBeNull();
  });

  it('answers 412 to a DELETE with a stale ETag and keeps the item', async () => {
    const item = await createItem(api, acme);
    const stale = await itemEtag(api, acme, item.Id);
    expectStatus(await patch(item.Id, { Name: 'Touched' }), 200);
    expectError(await remove(item.Id, { 'if-match': stale }), 412, 'PreconditionFailed');
    expectStatus(await fetch(item.Id), 200);
    expectStatus(await remove(item.Id, { 'if-match': await itemEtag(api, acme, item.Id) }), 204);
    expectError(await fetch(item.Id), 404, 'NotFound');
  });

  it('answers 412 for an ETag that never was the item’s', async () => {
    const item = await createItem(api, acme);
    expectError(await put(item.Id, { Title: 'x' }, { 'if-match': '"bogus"' }), 412);
  });

  it('counts a change of prices or dynamic attributes as a change of the item', async () => {
    const priceType = await createPriceType(api, acme);
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    const prices = await api.call({
      method: 'PUT',
      url: `${CATALOG}/items/${item.Id}/prices`,
      tenant: acme,
      body: [{ PriceTypeId: priceType.Id, NormalPrice: 1 }],
    });
    expectStatus(prices, 200);
    expectError(await put(item.Id, { Title: 'x' }, { 'if-match': etag }), 412);
  });

  it('answers 404 (not 412) for an unknown item with If-Match', async () => {
    expectError(await put(999_999, { Title: 'x' }, { 'if-match': '"v1"' }), 404, 'NotFound');
  });
});

describe('concurrent updates of one item', () => {
  it.each([1, 2, 3])(
    'lets exactly one of two PUTs with the same If-Match win, round %i',
    async () => {
      const item = await createItem(api, acme, { Name: 'Shared' });
      const etag = await itemEtag(api, acme, item.Id);
      const [a, b] = await Promise.all([
        put(item.Id, { Title: 'Client A', Name: 'A' }, { 'if-match': etag }),
        put(item.Id, { Title: 'Client B', Name: 'B' }, { 'if-match': etag }),
      ]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses, `${a.body} / ${b.body}`).toEqual([200, 412]);
      const winner = a.statusCode === 200 ? a : b;
      const loser = a.statusCode === 200 ? b : a;
      expectError(loser, 412, 'PreconditionFailed');
      const final = await fetch(item.Id);
      expect(final.json<ItemJson>()).toMatchObject({
        Title: winner.json<ItemJson>().Title,
        Name: winner.json<ItemJson>().Name,
      });
      expect(etagOf(final)).toBe(etagOf(winner));
    },
  );

  it('lets exactly one of two PATCHes with the same If-Match win', async () => {
    const item = await createItem(api, acme);
    const etag = await itemEtag(api, acme, item.Id);
    const responses = await Promise.all(
      ['A', 'B', 'C'].map((name) => patch(item.Id, { Name: name }, { 'if-match': etag })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
    const winner = responses.find((r) => r.statusCode === 200)!;
    expect((await getItem(api, acme, item.Id)).Name).toBe(winner.json<ItemJson>().Name);
  });

  it('applies both of two concurrent PATCHes of different fields without If-Match', async () => {
    const item = await createItem(api, acme);
    const [a, b] = await Promise.all([
      patch(item.Id, { Name: 'From A' }),
      patch(item.Id, { Model: 'From B' }),
    ]);
    expectStatus(a, 200);
    expectStatus(b, 200);
    expect(await getItem(api, acme, item.Id)).toMatchObject({ Name: 'From A', Model: 'From B' });
  });
});
