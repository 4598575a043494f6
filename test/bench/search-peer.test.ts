// The side-by-side search bench's own logic (bench/search-peer.ts): the peer's typo expansion and
// statements, and the check that both engines answered alike, which decides whether the bench's
// figures compare the same work. With searchd installed, the peer answers a small catalog.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../bench/search-peer-check.ts';
import type { PeerCatalog } from '../../bench/sphinx-load.ts';
import {
  matchExpression,
  oneEditAway,
  ourAnswer,
  sphinxSearch,
  type ComparableAnswer,
} from '../../bench/sphinx-queries.ts';
import { findSearchd, startSphinx } from '../../bench/sphinx-server.ts';

const catalog: PeerCatalog = {
  tenantId: 1,
  priceTypeIds: [7, 9],
  items: 3,
  words: new Set(['lantern', 'lanterns', 'classic', 'lamp']),
};

describe('the typo expansion', () => {
  it('lists every word one insertion, deletion, substitution or swap away, once', () => {
    const variants = oneEditAway('lamp');
    expect(new Set(variants).size).toBe(variants.length);
    expect(variants).not.toContain('lamp');
    for (const word of ['lam', 'amp', 'lump', 'lamps', 'clamp', 'lmap', 'lapm'])
      expect(variants).toContain(word);
    expect(variants).not.toContain('lumps');
    // 4 deletions, 3 swaps, 25 × 4 substitutions and 26 × 5 insertions, less the repeats.
    expect(variants.length).toBeLessThanOrEqual(4 + 3 + 100 + 130);
  });

  it("reads a query as ours does: the last word a prefix, a 5+ letter word with its catalog's neighbours", () => {
    expect(matchExpression(catalog, 'lanturn')).toBe('(lanturn* | lantern)');
    expect(matchExpression(catalog, 'Clasic lamp')).toBe('(clasic | classic) (lamp*)');
    // Four letters are too few for typos, and a neighbour outside the catalog is no alternative.
    expect(matchExpression(catalog, 'lamb')).toBe('(lamb*)');
  });
});

const answer = (overrides: Partial<ComparableAnswer> = {}): ComparableAnswer => ({
  ids: [1, 2, 3],
  total: 3000,
  exact: true,
  navigations: {
    Brands: new Map([
      [5, 2000],
      [6, 1000],
    ]),
  },
  priceRanges: new Map([[7, [5, 100] as [number, number]]]),
  ...overrides,
});

describe('whether both answered alike', () => {
  it('accepts the same page, total, counts and price ranges', () => {
    expect(compareAnswers(answer(), answer()).problems).toEqual([]);
  });

  it('finds a different page, total, count or price range when ours are exact', () => {
    const problems = (ours: Partial<ComparableAnswer>) =>
      compareAnswers(answer(ours), answer()).problems;
    expect(problems({ ids: [1, 3, 2] })).toHaveLength(1);
    expect(problems({ total: 2999 })).toHaveLength(1);
    expect(problems({ navigations: { Brands: new Map([[5, 2000]]) } })).toHaveLength(1);
    expect(problems({ priceRanges: new Map([[7, [5, 101]]]) })).toHaveLength(1);
  });

  it('measures estimated counts in standard errors, and fails an estimate far off', () => {
    const near = compareAnswers(answer({ exact: false, total: 3030 }), answer());
    expect(near.problems).toEqual([]);
    expect(near.summary).toContain('1.00 %');
    // The standard error of the total: √(3000 × 3000 / 2500) ≈ 60; 600 off is 10 of them.
    expect(compareAnswers(answer({ exact: false, total: 3600 }), answer()).problems).toHaveLength(
      1,
    );
  });

  it("reads our API's answer", () => {
    const ours = ourAnswer(
      JSON.stringify({
        SearchResult: {
          Items: [{ Id: 4 }, { Id: 2 }],
          TotalItemCount: 2,
          CountsAreExact: true,
          StaticNavigation: {
            Categories: [{ Id: 3, Count: 2 }],
            Brands: [{ Id: 5, Count: 2 }],
            Tags: [],
            PriceRanges: [{ PriceTypeId: 7, Min: 5, Max: 9 }],
          },
          DynamicNavigation: [{ TypeId: 1, Values: [{ TypeValueId: 11, Count: 1 }] }],
        },
      }),
    );
    expect(ours.ids).toEqual([4, 2]);
    expect(ours.navigations.Values).toEqual(new Map([[11, 1]]));
    expect(ours.priceRanges.get(7)).toEqual([5, 9]);
  });
});

const searchd = findSearchd();

describe.skipIf(!searchd)('the peer (searchd installed)', () => {
  it('answers the scenarios’ kinds of search over a small catalog', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'omni-sphinx-test-'));
    const sphinx = await startSphinx(searchd!, dir);
    const connection = await sphinx.connect();
    try {
      await connection.query(`insert into items (id, title, name, sku, model, short_description, long_description,
          category_id, brand_id, item_status_id, tag_ids, value_ids, price_1, price_2, rating, date_added, title_key) values
        (1, 'Red classic lamp', 'x', 'SKU-1', 'AB-1', 'short', 'a lantern', 3, 5, 1, (1, 2), (10), 12.5, 13, 1, 0, 'red classic lamp'),
        (2, 'Blue lamp', 'y', 'SKU-2', 'AB-2', 'short', 'lanterns', 3, 6, 1, (2), (10, 11), 22.5, 23, 1, 0, 'blue lamp'),
        (3, 'Green classic', 'z', 'SKU-3', 'AB-3', 'short', 'nothing', 4, 6, 1, (), (), 5, 6, 1, 0, 'green classic'),
        (4, 'Passive lantern', 'w', 'SKU-4', 'AB-4', 'short', 'lantern', 4, 6, 2, (), (), 5, 6, 1, 0, 'passive lantern')`);
      const typo = await sphinxSearch(connection, catalog, {
        Query: 'lanturn',
        IncludeStaticNavigation: true,
        IncludeDynamicNavigation: true,
      });
      // 'lanterns' is two edits away; item 4 is passive.
      expect(typo.ids).toEqual([1]);
      expect(typo.total).toBe(1);
      expect(typo.navigations.Tags).toEqual(
        new Map([
          [1, 1],
          [2, 1],
        ]),
      );
      expect(typo.priceRanges.get(7)).toEqual([12.5, 12.5]);
      const filtered = await sphinxSearch(connection, catalog, {
        BrandId: 6,
        PriceTypeId: 7,
        MaxPrice: 20,
        IncludeStaticNavigation: true,
      });
      expect(filtered.ids).toEqual([3]);
      const byTitle = await sphinxSearch(connection, catalog, {
        Skip: 1,
        Take: 20,
        OrderedPropertyName: 'Title',
      });
      expect(byTitle.ids).toEqual([3, 1]);
      expect(byTitle.total).toBe(3);
    } finally {
      await connection.end();
      await sphinx.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
