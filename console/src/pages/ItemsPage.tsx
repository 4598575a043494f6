// Items: one POST /private/catalog/items per view answers the page of 50 items, the facets
// (categories, brands, tags with their counts over the filtered set, each count what choosing it
// gives) and the page's default images, so the page shows its items after a single API round
// trip. Brand and category names come from the facets (every brand and category of the matches
// is in them). The search, filters, ordering and page are in the address (items-url.ts).
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { call, client } from '../api.ts';
import { ErrorMessage, Loading, PageTitle, Pager, useLoad } from '../components.tsx';
import { navigate, useRoute } from '../router.ts';
import { useAccess } from '../session.tsx';
import type { Facet, Item, SearchAnswer } from '../types.ts';
import {
  isNarrowed,
  listPath,
  priceSort,
  readListState,
  rememberListPath,
  SORTS,
  type ListState,
} from './items-url.ts';
import { formatPrice } from './price-format.ts';
import './items.css';

export const ITEMS_PER_PAGE = 50;
/** Facet entries shown per list (the chosen one always). */
const FACETS_SHOWN = 20;

type Navigation = NonNullable<SearchAnswer['SearchResult']['StaticNavigation']>;

function FacetList<F extends Facet>(props: {
  title: string;
  facets: F[];
  selected?: number;
  onSelect: (id: number | undefined) => void;
  /** The count shown: what choosing the entry gives (a category's includes its subcategories). */
  countOf?: (facet: F) => number;
}) {
  const { title, facets, selected, onSelect, countOf = (f) => f.Count } = props;
  const shown = facets.slice(0, FACETS_SHOWN);
  const chosen = facets.find((f) => f.Id === selected);
  if (chosen && !shown.includes(chosen)) shown.push(chosen);
  if (shown.length === 0) return null;
  return (
    <fieldset className="facet">
      <legend>{title}</legend>
      <ul>
        {shown.map((facet) => (
          <li key={facet.Id}>
            <button
              type="button"
              className="link"
              aria-pressed={selected === facet.Id}
              onClick={() => onSelect(selected === facet.Id ? undefined : facet.Id)}
            >
              {facet.Name} <span className="count">({countOf(facet)})</span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The filters: a disclosure, open at first on a wide screen and folded on a phone. */
function Filters({ chosen, children }: { chosen: number; children: ReactNode }) {
  const [open, setOpen] = useState(() => !window.matchMedia('(max-width: 40rem)').matches);
  return (
    <details
      className="filters"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>Filters{chosen > 0 ? ` (${chosen} chosen)` : ''}</summary>
      {children}
    </details>
  );
}

/** An item's prices, each in its price type's currency; a sale price before the struck normal one. */
function Prices({ prices }: { prices: Item['Prices'] }) {
  if (prices.length === 0) return <span className="muted">No price</span>;
  return (
    <ul className="prices">
      {prices.map((p) => (
        <li key={p.PriceTypeId}>
          {p.DiscountPrice !== null && p.DiscountPrice < p.NormalPrice ? (
            <>
              <span className="sale">
                <span className="visually-hidden">Sale price: </span>
                {formatPrice(p.DiscountPrice, p.PriceTypeSymbol)}
              </span>{' '}
              <s className="was">
                <span className="visually-hidden">, normal price: </span>
                {formatPrice(p.NormalPrice, p.PriceTypeSymbol)}
              </s>
            </>
          ) : (
            formatPrice(p.DiscountPrice ?? p.NormalPrice, p.PriceTypeSymbol)
          )}
        </li>
      ))}
    </ul>
  );
}

/** "“boots” with the chosen category and brand": what narrows the list, in words. */
function narrowedBy(state: ListState): string {
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
    OrderBy: ordering || byPrice ? ((ordering ?? byPrice)!.descending ? 'Desc' : 'Asc') : null,
    PriceTypeId: byPrice?.priceTypeId ?? null,
    Skip: (state.page - 1) * ITEMS_PER_PAGE,
    Take: ITEMS_PER_PAGE,
    IncludeStaticNavigation: true,
    IncludeDefaultImages: true,
  };
}

/** The orderings offered: the API's (prices by the price types the matches have). */
function sortOptions(state: ListState, navigation: Navigation | null | undefined) {
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

export function ItemsPage() {
  const access = useAccess();
  const { search } = useRoute();
  const state = readListState(search);
  const key = listPath(state);
  rememberListPath(key);
  const [typed, setTyped] = useState(state.query);
  // Back, Forward or a link changed the search: the box shows it.
  useEffect(() => setTyped(state.query), [state.query]);
  const heading = useRef<HTMLHeadingElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const { data, error, loading } = useLoad(
    () => call(client.POST('/private/catalog/items', { body: searchBody(state) })),
    [key],
  );
  const result = data?.SearchResult;
  const navigation = result?.StaticNavigation;
  const go = (change: Partial<ListState>) => navigate(listPath({ ...state, page: 1, ...change }));
  const open = (id: number | 'new') => navigate(`items/${id}`);
  const canWrite = access.can('catalog', 'write');
  const narrowed = isNarrowed(state);
  const chosenFilters = [state.categoryId, state.brandId, state.tagId].filter(
    (f) => f !== undefined,
  ).length;
  const clear = () => {
    navigate(listPath({ query: '', sort: state.sort, page: 1 }));
    searchBox.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ query: typed.trim() });
  };

  const brandNames = new Map((navigation?.Brands ?? []).map((b) => [b.Id, b.Name]));
  const categoryNames = new Map((navigation?.Categories ?? []).map((c) => [c.Id, c.Name]));
  const thumbnails = new Map((result?.DefaultImages ?? []).map((i) => [i.ItemId, i.AssetUrl]));
  const total = result?.TotalItemCount ?? 0;

  let title: string | undefined;
  let body: ReactNode = null;
  if (result && total === 0 && !narrowed) {
    title = 'No items yet';
    body = (
      <div className="empty-state">
        <p>Items you create show here with their image, brand, category, status and prices.</p>
        {canWrite && (
          <button type="button" className="primary" onClick={() => open('new')}>
            Create your first item
          </button>
        )}
      </div>
    );
  } else if (result && total === 0) {
    title = 'No items match';
    body = (
      <div className="empty-state">
        <p>No items match {narrowedBy(state)}.</p>
        <button type="button" onClick={clear}>
          Clear search and filters
        </button>
      </div>
    );
  } else if (result && result.Items.length === 0) {
    title = `No items on page ${state.page}`;
    body = (
      <div className="empty-state">
        <p>
          The list has {total} {total === 1 ? 'item' : 'items'}, on fewer pages.
        </p>
        <button type="button" onClick={() => navigate(listPath({ ...state, page: 1 }))}>
          Go to the first page
        </button>
      </div>
    );
  } else if (result) {
    // Above the search's exact limit the total is an estimate (CountsAreExact false).
    title = `${result.CountsAreExact ? '' : 'About '}${total} ${total === 1 ? 'item' : 'items'}`;
    body = (
      <>
        <table
          className="item-list"
          role="table"
          aria-labelledby="items-heading"
          aria-busy={loading}
        >
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                <span className="visually-hidden">Image</span>
              </th>
              <th scope="col" role="columnheader">
                Item
              </th>
              <th scope="col" role="columnheader">
                Brand
              </th>
              <th scope="col" role="columnheader">
                Category
              </th>
              <th scope="col" role="columnheader">
                Status
              </th>
              <th scope="col" role="columnheader">
                Price
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {result.Items.map((item) => {
              const image = thumbnails.get(item.Id);
              const brand = item.BrandId === null ? undefined : brandNames.get(item.BrandId);
              const category =
                item.CategoryId === null ? undefined : categoryNames.get(item.CategoryId);
              return (
                <tr key={item.Id} role="row" data-item={item.Id}>
                  <td className="image" role="cell">
                    {image ? (
                      <img src={image} alt="" width={48} height={48} loading="lazy" />
                    ) : (
                      <span className="no-image" aria-hidden="true" />
                    )}
                  </td>
                  <td className="title" role="cell">
                    <a
                      href={`/console/items/${item.Id}`}
                      onClick={(event) => {
                        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                        event.preventDefault();
                        open(item.Id);
                      }}
                    >
                      {item.Title}
                    </a>
                    {item.SKU && <span className="sku">SKU {item.SKU}</span>}
                  </td>
                  <td className="brand" role="cell">
                    <span className="card-label" aria-hidden="true">
                      Brand:{' '}
                    </span>
                    {brand ?? <span className="muted">None</span>}
                  </td>
                  <td className="category" role="cell">
                    <span className="card-label" aria-hidden="true">
                      Category:{' '}
                    </span>
                    {category ?? <span className="muted">None</span>}
                  </td>
                  <td className="status" role="cell">
                    <span className={item.ItemStatusId === 2 ? 'badge passive' : 'badge active'}>
                      {item.ItemStatusId === 2 ? 'Passive' : 'Active'}
                    </span>
                  </td>
                  <td className="price" role="cell">
                    <Prices prices={item.Prices} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <Pager
          label="Items"
          skip={(state.page - 1) * ITEMS_PER_PAGE}
          take={ITEMS_PER_PAGE}
          total={total}
          onChange={(skip) => {
            navigate(listPath({ ...state, page: skip / ITEMS_PER_PAGE + 1 }));
            // The Next button may turn disabled on the last page: the list's heading takes the focus.
            heading.current?.focus();
          }}
        />
      </>
    );
  }

  return (
    <div className="items-page">
      <PageTitle>Items</PageTitle>
      <div className="toolbar">
        <form role="search" onSubmit={submit} className="inline item-search">
          <label htmlFor="item-search">Search items</label>
          <input
            id="item-search"
            ref={searchBox}
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit">Search</button>
        </form>
        <div className="inline item-sort">
          <label htmlFor="item-sort">Sort by</label>
          <select id="item-sort" value={state.sort} onChange={(e) => go({ sort: e.target.value })}>
            {sortOptions(state, navigation).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        {canWrite && (
          <button type="button" onClick={() => open('new')}>
            New item
          </button>
        )}
      </div>
      <ErrorMessage error={error} />
      {error !== undefined && narrowed && (
        <button type="button" onClick={clear}>
          Clear search and filters
        </button>
      )}
      <div className="with-facets">
        <aside aria-label="Filters">
          {navigation && (
            <Filters chosen={chosenFilters}>
              <FacetList
                title="Category"
                facets={navigation.Categories}
                countOf={(category) => category.CountWithSubcategories}
                selected={state.categoryId}
                onSelect={(categoryId) => go({ categoryId })}
              />
              <FacetList
                title="Brand"
                facets={navigation.Brands}
                selected={state.brandId}
                onSelect={(brandId) => go({ brandId })}
              />
              {/* One tag at a time: while one is chosen, choosing another would replace it, so
                  the others' counts (items with both) would not be what choosing them gives. */}
              <FacetList
                title="Tag"
                facets={
                  state.tagId === undefined
                    ? navigation.Tags
                    : navigation.Tags.filter((t) => t.Id === state.tagId)
                }
                selected={state.tagId}
                onSelect={(tagId) => go({ tagId })}
              />
            </Filters>
          )}
        </aside>
        <div className="grow">
          {loading && <Loading />}
          {title && (
            <h2 id="items-heading" ref={heading} tabIndex={-1} className="results-heading">
              {title}
            </h2>
          )}
          {body}
        </div>
      </div>
    </div>
  );
}
