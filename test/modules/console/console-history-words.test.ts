// The change history in a retailer's words without a browser (console/src/pages/history/
// history-words.ts): field paths named after what they are, ids named after what they stand for,
// who made a change and when.
import { describe, expect, it } from 'vitest';
import {
  actionWords,
  actorWords,
  changeWords,
  listedChanges,
  pathLabel,
  stepsOf,
  timeWords,
  type NameBook,
} from '../../../console/src/pages/history/history-words.ts';

const names: NameBook = {
  priceTypes: new Map([[2, 'Retail']]),
  brands: new Map([
    [4, 'Northwind'],
    [5, 'Contoso'],
  ]),
  tags: new Map([[7, 'winter']]),
  attributeTypes: new Map([[3, 'Colour']]),
  categories: new Map([[9, 'Clothing / Coats']]),
};

describe('stepsOf', () => {
  it('reads properties and the keys of array entries', () => {
    expect(stepsOf('Prices[PriceTypeId=2].NormalPrice')).toEqual([
      { name: 'Prices', key: { field: 'PriceTypeId', value: '2' } },
      { name: 'NormalPrice' },
    ]);
    expect(stepsOf('Foo[3]')).toEqual([{ name: 'Foo', key: { field: undefined, value: '3' } }]);
    expect(stepsOf('Title')).toEqual([{ name: 'Title' }]);
  });
});

describe('pathLabel', () => {
  it.each([
    ['Title', 'Title'],
    ['ShortDescription', 'Short description'],
    ['SKU', 'SKU'],
    ['Prices[PriceTypeId=2].NormalPrice', 'Price “Retail”'],
    ['Prices[PriceTypeId=2].DiscountPrice', 'Sale price “Retail”'],
    ['Prices[PriceTypeId=8].NormalPrice', 'Price #8'],
    ['Tags[Id=7]', 'Tag “winter”'],
    ['DynamicAttributes[TypeId=3].Value', 'Attribute “Colour”'],
    ['CategoryMetadata[Key=season].Value', 'Metadata “season”'],
    ['Foo[0]', 'Foo 1'],
  ])('%s → %s', (path, label) => {
    expect(pathLabel(path, names)).toBe(label);
  });
});

describe('changeWords', () => {
  it('says a price change with the price type’s name', () => {
    expect(
      changeWords({ Path: 'Prices[PriceTypeId=2].NormalPrice', Old: 19.99, New: 17.99 }, names),
    ).toBe('Price “Retail” 19.99 → 17.99');
  });
  it('quotes text and says an emptied field', () => {
    expect(changeWords({ Path: 'Title', Old: 'Coat', New: 'Wool coat' })).toBe(
      'Title “Coat” → “Wool coat”',
    );
    expect(changeWords({ Path: 'Model', Old: 'X1', New: null })).toBe('Model “X1” → (empty)');
  });
  it('names brands, categories and statuses by what they are', () => {
    expect(changeWords({ Path: 'BrandId', Old: 4, New: 5 }, names)).toBe(
      'Brand “Northwind” → “Contoso”',
    );
    expect(changeWords({ Path: 'CategoryId', Old: null, New: 9 }, names)).toBe(
      'Category (empty) → “Clothing / Coats”',
    );
    expect(changeWords({ Path: 'ItemStatusId', Old: 1, New: 2 })).toBe('Status Active → Passive');
  });
  it('says an entry added or removed', () => {
    expect(changeWords({ Path: 'Tags[Id=7]', Old: null, New: { Id: 7 } }, names)).toBe(
      'Tag “winter” added',
    );
    expect(
      changeWords(
        {
          Path: 'Prices[PriceTypeId=2]',
          Old: null,
          New: { PriceTypeId: 2, NormalPrice: 10, DiscountPrice: null },
        },
        names,
      ),
    ).toBe('Price “Retail” added: 10');
    expect(changeWords({ Path: 'Tags[Id=7]', Old: { Id: 7 }, New: null }, names)).toBe(
      'Tag “winter” removed',
    );
  });
  it('never shows a secret, only that it changed', () => {
    expect(changeWords({ Path: 'Secret', Old: null, New: 'changed' })).toBe('Secret changed');
  });
});

describe('listedChanges', () => {
  it('leaves out timestamps and renumbered ids, and lists nothing for a created entry', () => {
    const changes = [
      { Path: 'Prices[PriceTypeId=2].NormalPrice', Old: 1, New: 2 },
      { Path: 'Prices[PriceTypeId=2].PriceId', Old: 10, New: 11 },
      { Path: 'DateModified', Old: 'a', New: 'b' },
    ];
    expect(listedChanges({ Action: 'updated', Changes: changes })).toEqual([changes[0]]);
    expect(listedChanges({ Action: 'created', Changes: changes })).toEqual([]);
  });
});

describe('actionWords', () => {
  it('summarises created, deleted and restored entries', () => {
    const title = [{ Path: 'Title', Old: null, New: 'Wool coat' }];
    expect(actionWords({ Action: 'created', Changes: title })).toBe('Created “Wool coat”');
    expect(
      actionWords({ Action: 'deleted', Changes: [{ Path: 'Name', Old: 'Acme', New: null }] }),
    ).toBe('Deleted “Acme”');
    expect(actionWords({ Action: 'restored', RestoredFrom: 2, Changes: [] })).toBe(
      'Restored version 2',
    );
    expect(actionWords({ Action: 'updated', Changes: [] })).toBe('Changed');
  });
});

describe('actorWords', () => {
  it.each([
    [{ Type: 'Member', Id: '3', Name: 'anna' }, 'anna (console)'],
    [{ Type: 'App', Id: 'abc', Name: 'Pricing bot' }, 'Pricing bot (app)'],
    [
      { Type: 'Device', Id: 'kiosk-7', OnBehalfOf: { Type: 'App', Id: 'k', Name: 'Kiosk' } },
      'device kiosk-7 of Kiosk (app)',
    ],
    [{ Type: 'Job', Id: '12', Name: 'catalog-import' }, 'import job #12'],
    [{ Type: 'System' }, 'the system'],
    [undefined, 'the system'],
  ])('%j → %s', (actor, words) => {
    expect(actorWords(actor)).toBe(words);
  });
});

describe('timeWords', () => {
  const now = new Date(2026, 2, 14, 18, 30);
  it('says the hour and minute of today, and the day before today', () => {
    expect(timeWords(new Date(2026, 2, 14, 14, 2).toISOString(), now, 'en-GB')).toBe('14:02');
    expect(timeWords(new Date(2026, 2, 3, 9, 5).toISOString(), now, 'en-GB')).toBe('3 Mar, 09:05');
    expect(timeWords(new Date(2025, 11, 24, 23, 59).toISOString(), now, 'en-GB')).toBe(
      '24 Dec 2025, 23:59',
    );
  });
});
