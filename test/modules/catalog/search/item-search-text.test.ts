// POST /private/catalog/items (contract §5.3), the text part: relevance order, prefix of the
// last word, one typo in a word of 5+ letters, accent and case folding, and search that sees a
// write at the next request.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../../support/test-api.ts';
import { CATALOG, createItem, type ItemJson } from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { idsOf, searchOk } from './search-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const items: Record<string, ItemJson> = {};

beforeAll(async () => {
  const make = async (key: string, body: Record<string, unknown>) =>
    (items[key] = await createItem(api, acme, body));
  await make('title', { Title: 'Espresso machine', SKU: 'EM-100' });
  await make('model', { Title: 'Barista set', Model: 'Espresso' });
  await make('description', {
    Title: 'Burr grinder',
    ShortDescription: 'Grinds coffee beans for espresso',
  });
  await make('creme', { Title: 'Crème brûlée torch', Name: 'Kitchen torch' });
  await make('cafe', { Title: 'Café table', LongDescription: 'A round table for two' });
  await make('coffee', { Title: 'Coffee mug', Name: 'Mug' });
  await make('passive', { Title: 'Espresso cups, retired', ItemStatusId: 2 });
});

const search = (body: Record<string, unknown>) => searchOk(api, acme, body);
const text = async (Query: string) => idsOf(await search({ Query }));

describe('POST /private/catalog/items: relevance', () => {
  it('ranks a Title match above a Model match above a description match', async () => {
    const result = await search({ Query: 'espresso' });
    expect(idsOf(result)).toEqual([items.title!.Id, items.model!.Id, items.description!.Id]);
    expect(result.TotalItemCount).toBe(3);
  });

  it('is the default order with a Query, and Relevance by name in any case', async () => {
    const explicit = await search({ Query: 'espresso', OrderedPropertyName: 'relevance' });
    expect(idsOf(explicit)).toEqual(await text('espresso'));
  });

  it('requires every word, and ranks items matching both better', async () => {
    expect(await text('espresso machine')).toEqual([items.title!.Id]);
    expect(await text('coffee espresso')).toEqual([items.description!.Id]);
  });

  it('sends each item in the wire shape of the item fetch', async () => {
    const [first] = (await search({ Query: 'espresso machine' })).Items;
    const fetched = await api.call({ url: `${CATALOG}/item/${items.title!.Id}`, tenant: acme });
    expect(first).toEqual(fetched.json());
  });
});

describe('POST /private/catalog/items: prefixes, typos and accents', () => {
  it('matches the last word as a prefix, as the user types', async () => {
    expect(await text('espre')).toEqual(await text('espresso'));
    expect(await text('espresso mach')).toEqual([items.title!.Id]);
    expect(await text('t')).toEqual(expect.arrayContaining([items.creme!.Id, items.cafe!.Id]));
  });

  it('completes a prefix of four letters or more to every word starting with it', async () => {
    // Few completions are looked up in the catalog's words (migration 0261), including a word
    // with digits after its letters; many stay a prefix match of the index. Both answer alike.
    const lamps = [
      await createItem(api, acme, { Title: 'Lampshade' }),
      await createItem(api, acme, { Title: 'Lamp2000 desk light' }),
      await createItem(api, acme, { Title: 'Lamplighter' }),
    ].map((i) => i.Id);
    const many: number[] = [];
    try {
      expect(await text('lamp')).toEqual(expect.arrayContaining(lamps));
      expect(await text('lamp')).toHaveLength(3);
      expect(await text('lamp2')).toEqual([lamps[1]]);
      expect(await text('lampsh')).toEqual([lamps[0]]);
      // The query's words name the tenant, as its rows' words do (migration 0262).
      const built = async (word: string) => {
        const [row] = await api.database.handle.query<{ q: string; t: number }>(
          `select item_search_query(t.id, array[$2], true, false, false, '')::text as q, t.id as t
           from tenants t where t.name = $1`,
          [acme.name, word],
        );
        return row!.q.replaceAll(`'${row!.t} `, "'");
      };
      expect(await built('lamp')).toBe("'lamp' | 'lamp2000' | 'lamplighter' | 'lampshade'");
      expect(await built('lam')).toBe("'lam':*");
      for (let k = 0; k < 70; k++)
        many.push(
          (
            await createItem(api, acme, {
              Title: `Zyxwv${String.fromCharCode(97 + (k % 26))}${k} kit`,
            })
          ).Id,
        );
      const all = idsOf(await search({ Query: 'zyxw', Take: 100 }));
      expect(all.sort((a, b) => a - b)).toEqual(many);
      expect(await text('zyxwva0')).toEqual([many[0]]);
      expect(await built('zyxw')).toBe("'zyxw':*");
    } finally {
      for (const id of [...lamps, ...many])
        expectStatus(
          await api.call({ method: 'DELETE', url: `${CATALOG}/item/${id}`, tenant: acme }),
          204,
        );
    }
  });

  it('does not take a word before the last one as a prefix', async () => {
    expect(await text('espre machine')).toEqual([]);
  });

  it('tolerates one typo in a word of five letters or more', async () => {
    const espresso = await text('espresso');
    expect(await text('expresso')).toEqual(espresso); // substitution
    expect(await text('esspresso')).toEqual(espresso); // insertion
    expect(await text('espreso')).toEqual(espresso); // deletion
    expect(await text('esrpesso')).toEqual(espresso); // two adjacent letters swapped
    expect(await text('grinedr')).toEqual([items.description!.Id]); // swapped at the end
    expect(await text('rginder')).toEqual([items.description!.Id]); // swapped at the start
    expect(await text('grnder')).toEqual([items.description!.Id]);
    expect(await text('expresso machine')).toEqual([items.title!.Id]);
  });

  it('does not match two typos away, nor a typo in a shorter word', async () => {
    expect(await text('exprezso')).toEqual([]);
    expect(await text('exspreso')).toEqual([]);
    // A swap and a substitution, two swaps, a swap of letters that are not neighbours.
    expect(await text('exrpesso')).toEqual([]);
    expect(await text('sepresos')).toEqual([]);
    expect(await text('essrepso')).toEqual([]);
    expect(await text('mgu coffee')).toEqual([]);
  });

  it('folds accents and case on both sides', async () => {
    expect(await text('creme brulee')).toEqual([items.creme!.Id]);
    expect(await text('CRÈME BRÛLÉE')).toEqual([items.creme!.Id]);
    expect(await text('cafe')).toEqual([items.cafe!.Id]);
    expect(await text('Café')).toEqual([items.cafe!.Id]);
    // A decomposed accent (e + combining acute) is the same word.
    expect(await text('cafe\u0301')).toEqual([items.cafe!.Id]);
  });

  it('searches SKU, Model, Name and both descriptions', async () => {
    expect(await text('EM-100')).toEqual([items.title!.Id]);
    expect(await text('kitchen')).toEqual([items.creme!.Id]);
    expect(await text('round table')).toEqual([items.cafe!.Id]);
  });

  it('answers 200 and no item for a Query of only punctuation; an empty Query is no filter', async () => {
    const none = await search({ Query: '?! -- ...' });
    expect(none).toMatchObject({ Items: [], TotalItemCount: 0 });
    const all = await search({ Query: '', Take: 1000 });
    expect(all.TotalItemCount).toBe(6);
  });

  it('leaves passive items out unless asked for', async () => {
    expect(await text('cups')).toEqual([]);
    const withPassive = await search({ Query: 'cups', IncludePassiveItems: true });
    expect(idsOf(withPassive)).toEqual([items.passive!.Id]);
  });
});

describe('POST /private/catalog/items: consistency with writes', () => {
  it('finds an item created, changed or deleted at the next request', async () => {
    const created = await createItem(api, acme, { Title: 'Zabaglione whisk' });
    expect(await text('zabaglione')).toEqual([created.Id]);
    // Its new word is also in the typo word list at once.
    expect(await text('zabaglone')).toEqual([created.Id]);
    const patched = await api.call({
      method: 'PATCH',
      url: `${CATALOG}/item/${created.Id}`,
      tenant: acme,
      body: { Title: 'Panettone knife' },
    });
    expectStatus(patched, 200);
    expect(await text('zabaglione')).toEqual([]);
    expect(await text('panettone')).toEqual([created.Id]);
    const deleted = await api.call({
      method: 'DELETE',
      url: `${CATALOG}/item/${created.Id}`,
      tenant: acme,
    });
    expectStatus(deleted, 204);
    expect(await text('panettone')).toEqual([]);
  });
});
