// Items: one POST /private/catalog/items per view answers the page of 50 items and the facets
// (categories, brands, tags with their counts over the filtered set), so the page shows its
// items after a single API round trip.
import { useState, type FormEvent } from 'react';
import { call, client } from '../api.ts';
import { ErrorMessage, Loading, PageTitle, Pager, useLoad } from '../components.tsx';
import { navigate } from '../router.ts';
import { useAccess } from '../session.tsx';
import type { Facet } from '../types.ts';

export const ITEMS_PER_PAGE = 50;

interface Filters {
  query: string;
  categoryId?: number;
  brandId?: number;
  tagId?: number;
  skip: number;
}

function FacetList(props: {
  title: string;
  facets: Facet[];
  selected?: number;
  onSelect: (id: number | undefined) => void;
}) {
  const { title, facets, selected, onSelect } = props;
  if (facets.length === 0) return null;
  return (
    <fieldset className="facet">
      <legend>{title}</legend>
      <ul>
        {facets.slice(0, 20).map((facet) => (
          <li key={facet.Id}>
            <button
              type="button"
              className="link"
              aria-pressed={selected === facet.Id}
              onClick={() => onSelect(selected === facet.Id ? undefined : facet.Id)}
            >
              {facet.Name} <span className="count">({facet.Count})</span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export function ItemsPage() {
  const access = useAccess();
  const [filters, setFilters] = useState<Filters>({ query: '', skip: 0 });
  const [typed, setTyped] = useState('');
  const { data, error, loading } = useLoad(
    () =>
      call(
        client.POST('/private/catalog/items', {
          body: {
            Query: filters.query || null,
            CategoryId: filters.categoryId ?? null,
            BrandId: filters.brandId ?? null,
            TagId: filters.tagId ?? null,
            IncludePassiveItems: true,
            Skip: filters.skip,
            Take: ITEMS_PER_PAGE,
            IncludeStaticNavigation: true,
          },
        }),
      ),
    [filters],
  );
  const result = data?.SearchResult;
  const navigation = result?.StaticNavigation;
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters((f) => ({ ...f, query: typed.trim(), skip: 0 }));
  };
  const open = (id: number | 'new') => navigate(`items/${id}`);

  return (
    <>
      <PageTitle>Items</PageTitle>
      <div className="toolbar">
        <form role="search" onSubmit={search} className="inline">
          <label htmlFor="item-search">Search items</label>
          <input
            id="item-search"
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit">Search</button>
        </form>
        {access.can('catalog', 'write') && (
          <button type="button" onClick={() => open('new')}>
            New item
          </button>
        )}
      </div>
      <ErrorMessage error={error} />
      <div className="with-facets">
        <aside aria-label="Filters">
          {navigation && (
            <>
              <FacetList
                title="Category"
                facets={navigation.Categories}
                selected={filters.categoryId}
                onSelect={(categoryId) => setFilters((f) => ({ ...f, categoryId, skip: 0 }))}
              />
              <FacetList
                title="Brand"
                facets={navigation.Brands}
                selected={filters.brandId}
                onSelect={(brandId) => setFilters((f) => ({ ...f, brandId, skip: 0 }))}
              />
              <FacetList
                title="Tag"
                facets={navigation.Tags}
                selected={filters.tagId}
                onSelect={(tagId) => setFilters((f) => ({ ...f, tagId, skip: 0 }))}
              />
            </>
          )}
        </aside>
        <div className="grow">
          {loading && <Loading />}
          {result && (
            <>
              <table className="cards" aria-busy={loading}>
                <caption>{result.TotalItemCount} items</caption>
                <thead>
                  <tr>
                    <th scope="col">Id</th>
                    <th scope="col">Title</th>
                    <th scope="col">SKU</th>
                    <th scope="col">Status</th>
                    <th scope="col">Price</th>
                  </tr>
                </thead>
                <tbody>
                  {result.Items.map((item) => {
                    const price = item.Prices[0];
                    return (
                      <tr key={item.Id}>
                        <td data-label="Id">{item.Id}</td>
                        <td data-label="Title">
                          <a
                            href={`/console/items/${item.Id}`}
                            onClick={(event) => {
                              event.preventDefault();
                              open(item.Id);
                            }}
                          >
                            {item.Title}
                          </a>
                        </td>
                        <td data-label="SKU">{item.SKU}</td>
                        <td data-label="Status">
                          {item.ItemStatusId === 2 ? 'Passive' : 'Active'}
                        </td>
                        <td data-label="Price">
                          {price
                            ? `${price.DiscountPrice ?? price.NormalPrice} ${price.PriceTypeSymbol ?? ''}`
                            : ''}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager
                label="Items"
                skip={filters.skip}
                take={ITEMS_PER_PAGE}
                total={result.TotalItemCount}
                onChange={(skip) => setFilters((f) => ({ ...f, skip }))}
              />
            </>
          )}
        </div>
      </div>
    </>
  );
}
