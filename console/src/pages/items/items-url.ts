// The Items list's state lives in its address (/console/items?q=…&category=…&brand=…&tag=…
// &sort=…&page=…), so Back and Forward, a reload and a bookmark show the same list. The editor's
// "Back to items" returns to the list as it was last shown.
import type { SearchBody } from '../../types.ts';

export interface ListState {
  query: string;
  categoryId?: number;
  brandId?: number;
  tagId?: number;
  /** '' (the API's default: best match with a query, else by id) or an ordering (SORTS). */
  sort: string;
  /** 1-based. */
  page: number;
}

/** Orderings of the search (OrderedPropertyName, OrderBy), by their value in the address. */
export const SORTS: Record<
  string,
  { property: NonNullable<SearchBody['OrderedPropertyName']>; descending: boolean; label: string }
> = {
  title: { property: 'Title', descending: false, label: 'Title, A to Z' },
  '-title': { property: 'Title', descending: true, label: 'Title, Z to A' },
  '-dateAdded': { property: 'DateAdded', descending: true, label: 'Newest first' },
  dateAdded: { property: 'DateAdded', descending: false, label: 'Oldest first' },
  '-rating': { property: 'Rating', descending: true, label: 'Rating, highest first' },
  rating: { property: 'Rating', descending: false, label: 'Rating, lowest first' },
};

/** A price ordering names its price type: `price.3` (lowest first) or `-price.3`. */
export function priceSort(value: string): { priceTypeId: number; descending: boolean } | undefined {
  const match = /^(-?)price\.(\d+)$/.exec(value);
  return match ? { priceTypeId: Number(match[2]), descending: match[1] === '-' } : undefined;
}

const id = (text: string | null): number | undefined =>
  text !== null && /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;

export function readListState(search: URLSearchParams): ListState {
  const sort = search.get('sort') ?? '';
  const page = Number(search.get('page'));
  return {
    query: search.get('q') ?? '',
    categoryId: id(search.get('category')),
    brandId: id(search.get('brand')),
    tagId: id(search.get('tag')),
    sort: sort in SORTS || priceSort(sort) ? sort : '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The list's path with its state ('items' alone for the plain list). */
export function listPath(state: ListState): string {
  const search = new URLSearchParams();
  if (state.query) search.set('q', state.query);
  if (state.categoryId) search.set('category', String(state.categoryId));
  if (state.brandId) search.set('brand', String(state.brandId));
  if (state.tagId) search.set('tag', String(state.tagId));
  if (state.sort) search.set('sort', state.sort);
  if (state.page > 1) search.set('page', String(state.page));
  const text = search.toString();
  return text ? `items?${text}` : 'items';
}

/** Whether the list is narrowed by a search or a filter (its empty state differs). */
export const isNarrowed = (state: ListState) =>
  state.query !== '' ||
  state.categoryId !== undefined ||
  state.brandId !== undefined ||
  state.tagId !== undefined;

let lastListPath = 'items';

/** Remembers the list as last shown (the list calls it on each view). */
export function rememberListPath(path: string): void {
  lastListPath = path;
}

/** The list as last shown, for the editor's "Back to items". */
export const lastItemsListPath = () => lastListPath;
