// What changed between two versions of a resource (src/db/changes/change-diff.ts): field paths,
// arrays matched by their identifying field or by index, and secrets never shown.
import { describe, expect, it } from 'vitest';
import { changesBetween, withoutSecrets } from '../../src/db/changes/change-diff.ts';

describe('changesBetween', () => {
  it('names nested fields by their path and leaves out what did not change', () => {
    expect(
      changesBetween(
        { Name: 'a', Location: { Longitude: 1, Latitude: 2 }, Note: null },
        { Name: 'b', Location: { Longitude: 1, Latitude: 3 }, Note: null },
      ),
    ).toEqual([
      { Path: 'Name', Old: 'a', New: 'b' },
      { Path: 'Location.Latitude', Old: 2, New: 3 },
    ]);
  });

  it('shows each field of a created resource with Old null, of a deleted one with New null', () => {
    expect(changesBetween(null, { Id: 1, Tags: [{ Id: 2 }] })).toEqual([
      { Path: 'Id', Old: null, New: 1 },
      { Path: 'Tags', Old: null, New: [{ Id: 2 }] },
    ]);
    expect(changesBetween({ Id: 1 }, null)).toEqual([{ Path: 'Id', Old: 1, New: null }]);
  });

  it('matches array elements by their identifying field, else by index', () => {
    expect(
      changesBetween(
        {
          Prices: [
            { PriceTypeId: 1, NormalPrice: 10 },
            { PriceTypeId: 2, NormalPrice: 8 },
          ],
          Tags: [{ Id: 7, Name: 'x' }],
          Codes: ['a', 'b'],
        },
        {
          Prices: [
            { PriceTypeId: 2, NormalPrice: 8 },
            { PriceTypeId: 1, NormalPrice: 12 },
          ],
          Tags: [{ Id: 9, Name: 'y' }],
          Codes: ['a', 'c', 'd'],
        },
      ),
    ).toEqual([
      { Path: 'Prices[PriceTypeId=1].NormalPrice', Old: 10, New: 12 },
      { Path: 'Tags[Id=9]', Old: null, New: { Id: 9, Name: 'y' } },
      { Path: 'Tags[Id=7]', Old: { Id: 7, Name: 'x' }, New: null },
      { Path: 'Codes[1]', Old: 'b', New: 'c' },
      { Path: 'Codes[2]', Old: null, New: 'd' },
    ]);
  });

  it('shows a changed secret only as "changed", and an unchanged one not at all', () => {
    expect(
      changesBetween(
        { Name: 'a', ApplicationSecret: 's1', PasswordHash: 'h', Inner: { SigningKey: 'k1' } },
        { Name: 'a', ApplicationSecret: 's2', PasswordHash: 'h', Inner: { SigningKey: 'k2' } },
      ),
    ).toEqual([
      { Path: 'ApplicationSecret', Old: null, New: 'changed' },
      { Path: 'Inner.SigningKey', Old: null, New: 'changed' },
    ]);
    expect(changesBetween(null, { Id: 1, Token: 't', Nested: { Secret: 'x', A: 1 } })).toEqual([
      { Path: 'Id', Old: null, New: 1 },
      { Path: 'Token', Old: null, New: 'changed' },
      { Path: 'Nested', Old: null, New: { A: 1 } },
    ]);
  });

  it('takes time linear in the size of the documents (a large keyed array)', () => {
    const n = 20_000;
    const before = { Items: Array.from({ length: n }, (_, i) => ({ Id: i, V: i })) };
    const after = { Items: Array.from({ length: n }, (_, i) => ({ Id: n - 1 - i, V: n - 1 - i })) };
    // Reversed but unchanged: matched by Id, so no change (an index match would find n of them).
    expect(changesBetween(before, after)).toEqual([]);
  });
});

describe('withoutSecrets', () => {
  it('drops secret fields at any depth', () => {
    expect(withoutSecrets({ A: 1, Password: 'p', B: [{ SubscriptionKey: 'k', C: 2 }] })).toEqual({
      A: 1,
      B: [{ C: 2 }],
    });
  });
});
