// Helpers of the item search tests (POST /private/catalog/items).
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import { CATALOG, expectStatus, type ItemJson } from './catalog-fixtures.ts';

export interface Facet {
  Id: number;
  Name: string;
  Count: number;
}

export interface SearchResultJson {
  Items: ItemJson[];
  TotalItemCount: number;
  StaticNavigation: {
    Categories: Facet[];
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
