// Helpers of the item search tests (POST /private/catalog/items).
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../../support/test-api.ts';
import { CATALOG, type ItemJson } from '../catalog-fixtures.ts';
import { expectStatus } from '../../../support/expectations.ts';

export interface Facet {
  Id: number;
  Name: string;
  Count: number;
}

export interface SearchResultJson {
  Items: ItemJson[];
  TotalItemCount: number;
  CountsAreExact: boolean;
  StaticNavigation: {
    Categories: (Facet & { CountWithSubcategories: number })[];
    Brands: Facet[];
    Tags: Facet[];
    PriceRanges: { PriceTypeId: number; PriceTypeSymbol: string; Min: number; Max: number }[];
  } | null;
  DynamicNavigation:
    | {
        TypeId: number;
        TypeName: string;
        Values: { TypeValueId: number; Value: string; Count: number }[];
      }[]
    | null;
  DefaultImages:
    | { ItemId: number; AssetId: number; AssetUrl: string; MimeType: string; FileName: string }[]
    | null;
}

export const searchItems = (api: TestApi, tenant: TestTenant, body: Record<string, unknown>) =>
  api.call({ method: 'POST', url: `${CATALOG}/items`, tenant, body });

export async function searchOk(
  api: TestApi,
  tenant: TestTenant,
  body: Record<string, unknown>,
): Promise<SearchResultJson> {
  const response = await searchItems(api, tenant, body);
  expectStatus(response, 200);
  const { SearchResult } = response.json<{ SearchResult: SearchResultJson }>();
  expect(SearchResult.Items.length).toBeLessThanOrEqual(SearchResult.TotalItemCount);
  return SearchResult;
}

export const idsOf = (result: SearchResultJson) => result.Items.map((i) => i.Id);

/** Tags, price ranges and attribute values counted over the items as GET returns them. */
export function navigationCounts(all: ItemJson[]) {
  const count = (keys: number[]) => {
    const counts = new Map<number, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    return [...counts.entries()]
      .map(([id, n]) => ({ id, n }))
      .sort((a, b) => b.n - a.n || a.id - b.id);
  };
  const ranges = new Map<number, number[]>();
  for (const p of all.flatMap((i) => i.Prices))
    ranges.set(p.PriceTypeId, [
      ...(ranges.get(p.PriceTypeId) ?? []),
      p.DiscountPrice ?? p.NormalPrice,
    ]);
  return {
    tags: count(all.flatMap((i) => i.Tags.map((t) => t.Id))),
    prices: [...ranges.entries()]
      .sort(([a], [b]) => a - b)
      .map(([id, values]) => ({ id, min: Math.min(...values), max: Math.max(...values) })),
    values: count(all.flatMap((i) => i.DynamicAttributes.map((d) => d.TypeValueId))),
  };
}

/** A search's navigations in the shape of navigationCounts (tags in the order the server gave). */
export function navigationOf(result: SearchResultJson) {
  const navigation = result.StaticNavigation!;
  return {
    tags: navigation.Tags.map((t) => ({ id: t.Id, n: t.Count })),
    prices: navigation.PriceRanges.map((p) => ({ id: p.PriceTypeId, min: p.Min, max: p.Max })),
    values: result
      .DynamicNavigation!.flatMap((d) => d.Values.map((v) => ({ id: v.TypeValueId, n: v.Count })))
      .sort((a, b) => b.n - a.n || a.id - b.id),
  };
}
