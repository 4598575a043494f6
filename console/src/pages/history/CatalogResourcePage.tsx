// The page of one brand (brands/{id}) or category (categories/{id}): its details, and its
// History tab (…/history). Brands and categories are edited where they are listed (the Brands
// list, the category tree); this page is where one of them is read, and its changes undone.
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { ApiFailure, call, client } from '../../api.ts';
import { categoryTree } from '../../catalog.ts';
import { ErrorMessage, Loading, PageTitle } from '../../components.tsx';
import { placesOf } from '../categories/categories-api.ts';
import { useAccess } from '../../session.tsx';
import { PageLink } from '../PageLink.tsx';
import { ResourceHistory } from './ResourceHistory.tsx';
import { ResourceTabs, viewOf } from './ResourceTabs.tsx';
import type { NameBook } from './history-words.ts';

interface Shown {
  title: string;
  facts: [string, string][];
  names: NameBook;
}

const orNone = (text: string | null | undefined) => text || '(none)';

/** Undefined for a resource that is gone (its history still shows). */
async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return undefined;
    throw error;
  }
}

async function loadBrand(id: number): Promise<Shown> {
  const brand = await unlessGone(
    call(client.GET('/private/catalog/brand/{id}', { params: { path: { id } } })),
  );
  return {
    title: brand ? `Brand ${id}: ${brand.Name}` : `Brand ${id} (deleted)`,
    facts: brand ? [['Name', brand.Name]] : [],
    names: {},
  };
}

async function loadCategory(id: number): Promise<Shown> {
  const [category, tree] = await Promise.all([
    unlessGone(call(client.GET('/private/catalog/category/{id}', { params: { path: { id } } }))),
    categoryTree(),
  ]);
  const places = placesOf(tree);
  const paths = new Map([...places].map(([key, place]) => [key, place.path]));
  const parent = category?.ParentCategoryId;
  return {
    title: category ? `Category ${id}: ${category.Name}` : `Category ${id} (deleted)`,
    facts: category
      ? [
          ['Name', category.Name],
          ['Place', places.get(id)?.path ?? category.Name],
          ['Parent', parent == null ? '(top level)' : (paths.get(parent) ?? `#${parent}`)],
          ['Short description', orNone(category.ShortDescription)],
          ['Long description', orNone(category.LongDescription)],
        ]
      : [],
    names: { categories: paths },
  };
}

const KINDS = {
  brands: { kind: 'brand', list: 'Brands', load: loadBrand },
  categories: { kind: 'category', list: 'Categories', load: loadCategory },
} as const;

export default function CatalogResourcePage({ path }: { path: string }) {
  const [list = 'brands', raw] = path.split('/');
  const { kind, list: listTitle, load } = KINDS[list === 'categories' ? 'categories' : 'brands'];
  const id = Number(raw);
  // The tab is there only for a member who may read the history; its address alone shows details.
  const view = useAccess().can('history', 'read') ? viewOf(path) : 'details';
  const page = useQuery({ queryKey: [kind, 'page', id], queryFn: () => load(id), gcTime: 0 });
  if (page.isPending) return <Loading />;
  if (!page.data) return <ErrorMessage error={page.error} />;
  const { title, facts, names } = page.data;
  return (
    <div className="resource-page">
      <PageTitle>{title}</PageTitle>
      <p>
        <PageLink to={list}>Back to {listTitle.toLowerCase()}</PageLink>
      </p>
      <ResourceTabs base={`${list}/${id}`} view={view} label={title} />
      {view === 'history' ? (
        <ResourceHistory kind={kind} id={id} names={names} onRestored={() => page.refetch()} />
      ) : (
        <section className="panel" aria-label="Details">
          {facts.length === 0 ? (
            <p>This {kind} has been deleted. Its history shows what it was.</p>
          ) : (
            <dl className="facts">
              {facts.map(([term, value]) => (
                <Fragment key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </Fragment>
              ))}
            </dl>
          )}
          <p className="muted">
            {kind === 'brand'
              ? 'Brands are renamed and deleted in the Brands list.'
              : 'Categories are edited, moved and deleted in the category tree.'}
          </p>
        </section>
      )}
    </div>
  );
}
