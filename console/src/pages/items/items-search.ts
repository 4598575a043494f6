// The Items list's searches: one POST /private/catalog/items per view answers the page of 50
// items, the facets (each count what choosing it gives) and the page's default images. While a
// brand is chosen, a second search without it answers the other brands (what choosing one of
// them instead gives), so that choosing a brand never hides the others.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, client } from '../../api.ts';
import type { SearchAnswer } from '../../types.ts';
import { listPath, priceSort, SORTS, type ListState } from './items-url.ts';

export const ITEMS_PER_PAGE = 50;
export type Navigation = NonNullable<SearchAnswer['SearchResult']['StaticNavigation']>;

function searchBody(state: ListState) {
  const ordering = SORTS[state.sort];
  const byPrice = priceSort(state.sort);
  return {
    Query: state.query || null,
    CategoryId: state.categoryId ?? null,
    BrandId: state.brandId ?? null,
    TagId: state.tagId ?? null,
    IncludePassiveItems: true,
    OrderedPropertyName: ordering ? ordering.property : byPrice ? 'Price' : null,
    OrderBy:
      ordering || byPrice
        ? (ordering ?? byPrice)!.descending
          ? ('Desc' as const)
          : ('Asc' as const)
        : null,
    PriceTypeId: byPrice?.priceTypeId ?? null,
    Skip: (state.page - 1) * ITEMS_PER_PAGE,
    Take: ITEMS_PER_PAGE,
    IncludeStaticNavigation: true,
    IncludeDefaultImages: true,
  };
}

const search = (body: ReturnType<typeof searchBody>) =>
  call(client.POST('/private/catalog/items', { body }));

/** The list's search, and (while a brand is chosen) the brands without that choice. */
export function useItemSearch(state: ListState) {
  const list = useQuery({
    queryKey: ['items', 'search', listPath(state)],
    queryFn: () => search(searchBody(state)),
    placeholderData: keepPreviousData,
  });
  const otherBrands = useQuery({
    queryKey: ['items', 'brands', listPath({ ...state, brandId: undefined, page: 1, sort: '' })],
    queryFn: () =>
      search({
        ...searchBody({ ...state, brandId: undefined, page: 1, sort: '' }),
        Take: 1,
        IncludeDefaultImages: false,
      }),
    enabled: state.brandId !== undefined,
  });
  return { list, brands: otherBrands.data?.SearchResult.StaticNavigation?.Brands };
}

/** "“boots” with the chosen category and brand": what narrows the list, in words. */
export function narrowedBy(state: ListState): string {
  const filters = [
    state.categoryId !== undefined && 'category',
    state.brandId !== undefined && 'brand',
    state.tagId !== undefined && 'tag',
  ].filter((f): f is string => f !== false);
  const chosen =
    filters.length === 0
      ? ''
      : `the chosen ${filters.length === 1 ? filters[0] : `${filters.slice(0, -1).join(', ')} and ${filters.at(-1)}`}`;
  if (!state.query) return chosen;
  return chosen ? `“${state.query}” with ${chosen}` : `“${state.query}”`;
}

/** The orderings offered: the API's (prices by the price types the matches have). */
export function sortOptions(state: ListState, navigation: Navigation | null | undefined) {
  const options = [{ value: '', label: state.query ? 'Best match' : 'Item id' }];
  for (const [value, { label }] of Object.entries(SORTS)) options.push({ value, label });
  const types = new Map(
    (navigation?.PriceRanges ?? []).map((r) => [r.PriceTypeId, r.PriceTypeSymbol]),
  );
  const chosen = priceSort(state.sort);
  if (chosen && !types.has(chosen.priceTypeId))
    types.set(chosen.priceTypeId, `type ${chosen.priceTypeId}`);
  for (const [id, symbol] of types) {
    options.push({ value: `price.${id}`, label: `Price (${symbol}), lowest first` });
    options.push({ value: `-price.${id}`, label: `Price (${symbol}), highest first` });
  }
  return options;
}
