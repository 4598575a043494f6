// Items: the catalog's items a page of 50 at a time, with search, filters (ItemFilters.tsx),
// the chosen filters as chips, sort and pages, all in the address (items-url.ts), so that Back,
// Forward, reload and bookmarks show the same list. Each view is one search (items-search.ts),
// which also answers the facets and the thumbnails; brand and category names come from its facets.
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorMessage, Loading, PageTitle, Pager } from '../../components.tsx';
import { navigate, useRoute } from '../../router.ts';
import { useAccess } from '../../session.tsx';
import { ChosenFilters, ItemFilters } from './ItemFilters.tsx';
import { ITEMS_PER_PAGE, narrowedBy, sortOptions, useItemSearch } from './items-search.ts';
import {
  isNarrowed,
  listPath,
  readListState,
  rememberListPath,
  type ListState,
} from './items-url.ts';
import './items.css';
import { ItemTable } from './ItemTable.tsx';

export function ItemsPage() {
  const access = useAccess();
  const { search } = useRoute();
  const state = readListState(search);
  rememberListPath(listPath(state));
  const [typed, setTyped] = useState(state.query);
  // Back, Forward, a link or Clear changed the search: the box shows it in the same render as
  // the list (an effect would leave the old words in the box for a frame after the list).
  const [shownQuery, setShownQuery] = useState(state.query);
  if (shownQuery !== state.query) {
    setShownQuery(state.query);
    setTyped(state.query);
  }
  const heading = useRef<HTMLHeadingElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const { list, brands } = useItemSearch(state);
  const { data, error, isFetching: loading } = list;
  const result = data?.SearchResult;
  const navigation = result?.StaticNavigation;
  const go = (change: Partial<ListState>) => navigate(listPath({ ...state, page: 1, ...change }));
  const canWrite = access.can('catalog', 'write');
  const narrowed = isNarrowed(state);
  const clear = () => {
    navigate(listPath({ query: '', sort: state.sort, page: 1 }));
    searchBox.current?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ query: typed.trim() });
  };
  const newItem = () => navigate('items/new');

  const brandNames = new Map(
    [...(navigation?.Brands ?? []), ...(brands ?? [])].map((b) => [b.Id, b.Name]),
  );
  const categoryNames = new Map((navigation?.Categories ?? []).map((c) => [c.Id, c.Name]));
  const total = result?.TotalItemCount ?? 0;

  let title: string | undefined;
  let body: ReactNode = null;
  if (result && total === 0 && !narrowed) {
    title = 'No items yet';
    body = (
      <div className="empty-state">
        <p>Items you create show here with their image, brand, category, status and prices.</p>
        {canWrite && (
          <button type="button" className="primary" onClick={newItem}>
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
        <ItemTable
          result={result}
          loading={loading}
          brandNames={brandNames}
          categoryNames={categoryNames}
        />
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

  const tagName = navigation?.Tags.find((t) => t.Id === state.tagId)?.Name;
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
          <button type="button" onClick={newItem}>
            New item
          </button>
        )}
      </div>
      <ErrorMessage error={error ?? undefined} />
      {error && narrowed && (
        <button type="button" onClick={clear}>
          Clear search and filters
        </button>
      )}
      <div className="with-facets">
        <aside aria-label="Filters">
          {navigation && (
            <ItemFilters state={state} navigation={navigation} brands={brands} go={go} />
          )}
        </aside>
        <div className="grow">
          <ChosenFilters
            state={state}
            names={{
              ...(state.categoryId !== undefined && {
                category: categoryNames.get(state.categoryId),
              }),
              ...(state.brandId !== undefined && { brand: brandNames.get(state.brandId) }),
              ...(tagName !== undefined && { tag: tagName }),
            }}
            go={go}
          />
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
