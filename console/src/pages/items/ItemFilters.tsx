// The Items list's filters: categories as a tree in path order, every ancestor of a category
// with matches included (a parent without items of its own too), each count what choosing it
// gives; brands (all of them, also while one is chosen); tags (one at a time). Each chosen
// filter is also a chip above the list with a visible "×" that removes it.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { flattenTree } from '../../catalog.ts';
import type { Category, Facet } from '../../types.ts';
import { loadTree, treeKey } from '../categories/categories-api.ts';
import type { Navigation } from './items-search.ts';
import type { ListState } from './items-url.ts';

/** Facet entries shown per list (the chosen one always). */
const FACETS_SHOWN = 20;
/** The tree changes rarely: one fetch serves the list's views for a while. */
const TREE_FRESH_MS = 5 * 60_000;

interface Entry {
  Id: number;
  Name: string;
  count: number;
  depth: number;
  /** The names from the top, "Clothing / Outerwear". */
  path: string;
}

/**
 * The categories to offer: those with matches and all their ancestors, in the tree's path order
 * (siblings by name), each with its count: its own matches and its subcategories' (an item has
 * one category, so a parent's count is the sum of its subtree's own counts).
 */
export function categoryEntries(tree: Category[], facets: Navigation['Categories']): Entry[] {
  const own = new Map(facets.map((f) => [f.Id, f.Count]));
  const sorted = (nodes: Category[]): Category[] =>
    [...nodes]
      .sort((a, b) => a.Name.localeCompare(b.Name))
      .map((n) => ({ ...n, CategoryTreeItems: sorted(n.CategoryTreeItems ?? []) }));
  const entries: Entry[] = [];
  const walk = (node: Category, depth: number, above: string): number => {
    const path = above ? `${above} / ${node.Name}` : node.Name;
    const at = entries.length;
    entries.push({ Id: node.Id, Name: node.Name, count: 0, depth, path });
    let count = own.get(node.Id) ?? 0;
    for (const child of node.CategoryTreeItems ?? []) count += walk(child, depth + 1, path);
    entries[at]!.count = count;
    return count;
  };
  for (const root of sorted(tree)) walk(root, 0, '');
  return entries.filter((e) => e.count > 0);
}

function FacetButton(props: {
  selected: boolean;
  onClick: () => void;
  label?: string;
  children: ReactNode;
  depth?: number;
}) {
  return (
    <li style={props.depth ? { paddingLeft: `${props.depth * 0.9}rem` } : undefined}>
      <button
        type="button"
        className="link"
        aria-pressed={props.selected}
        aria-label={props.label}
        onClick={props.onClick}
      >
        {props.children}
      </button>
    </li>
  );
}

function FacetList(props: {
  title: string;
  facets: Facet[];
  selected?: number;
  onSelect: (id: number | undefined) => void;
}) {
  const { title, facets, selected, onSelect } = props;
  const shown = facets.slice(0, FACETS_SHOWN);
  const chosen = facets.find((f) => f.Id === selected);
  if (chosen && !shown.includes(chosen)) shown.push(chosen);
  if (shown.length === 0) return null;
  return (
    <fieldset className="facet">
      <legend>{title}</legend>
      <ul>
        {shown.map((facet) => (
          <FacetButton
            key={facet.Id}
            selected={selected === facet.Id}
            onClick={() => onSelect(selected === facet.Id ? undefined : facet.Id)}
          >
            {facet.Name} <span className="count">({facet.Count})</span>
          </FacetButton>
        ))}
      </ul>
    </fieldset>
  );
}

function CategoryFacets(props: {
  facets: Navigation['Categories'];
  selected?: number;
  onSelect: (id: number | undefined) => void;
}) {
  const { facets, selected, onSelect } = props;
  const tree = useQuery({ queryKey: treeKey, queryFn: loadTree, staleTime: TREE_FRESH_MS });
  // A category the kept tree does not have (made since it was fetched): the tree again.
  const known = useMemo(
    () => new Set(flattenTree(tree.data ?? []).map((c) => c.category.Id)),
    [tree.data],
  );
  const complete = tree.data !== undefined && facets.every((f) => known.has(f.Id));
  const { refetch, isFetching } = tree;
  useEffect(() => {
    if (tree.data && !complete && !isFetching) void refetch();
  }, [tree.data, complete, isFetching, refetch]);
  // Without the tree (still loading, refused, or behind), the categories with matches by name.
  const entries: Entry[] = complete
    ? categoryEntries(tree.data, facets)
    : [...facets]
        .sort((a, b) => a.Name.localeCompare(b.Name))
        .map((f) => ({
          Id: f.Id,
          Name: f.Name,
          count: f.CountWithSubcategories,
          depth: 0,
          path: f.Name,
        }));
  if (entries.length === 0) return null;
  return (
    <fieldset className="facet categories">
      <legend>Category</legend>
      <ul>
        {entries.map((entry) => (
          <FacetButton
            key={entry.Id}
            depth={entry.depth}
            selected={selected === entry.Id}
            label={`${entry.path} (${entry.count})`}
            onClick={() => onSelect(selected === entry.Id ? undefined : entry.Id)}
          >
            {entry.Name} <span className="count">({entry.count})</span>
          </FacetButton>
        ))}
      </ul>
    </fieldset>
  );
}

/** The filters: a disclosure, open at first on a wide screen and folded on a phone. */
function Disclosure({ chosen, children }: { chosen: number; children: ReactNode }) {
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

export function ItemFilters(props: {
  state: ListState;
  navigation: Navigation;
  /** Every brand of the matches without the brand filter (while one is chosen). */
  brands: Navigation['Brands'] | undefined;
  go: (change: Partial<ListState>) => void;
}) {
  const { state, navigation, go } = props;
  const chosen = [state.categoryId, state.brandId, state.tagId].filter((f) => f !== undefined);
  return (
    <Disclosure chosen={chosen.length}>
      <CategoryFacets
        facets={navigation.Categories}
        selected={state.categoryId}
        onSelect={(categoryId) => go({ categoryId })}
      />
      <FacetList
        title="Brand"
        facets={state.brandId !== undefined && props.brands ? props.brands : navigation.Brands}
        selected={state.brandId}
        onSelect={(brandId) => go({ brandId })}
      />
      {/* One tag at a time: while one is chosen, choosing another would replace it, so the
          others' counts (items with both) would not be what choosing them gives. */}
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
    </Disclosure>
  );
}

/** The chosen filters as chips, each with a visible "×" that removes it. */
export function ChosenFilters(props: {
  state: ListState;
  names: { category?: string; brand?: string; tag?: string };
  go: (change: Partial<ListState>) => void;
}) {
  const { state, names, go } = props;
  const chips = [
    state.categoryId !== undefined && {
      kind: 'Category',
      name: names.category ?? `category ${state.categoryId}`,
      clear: () => go({ categoryId: undefined }),
    },
    state.brandId !== undefined && {
      kind: 'Brand',
      name: names.brand ?? `brand ${state.brandId}`,
      clear: () => go({ brandId: undefined }),
    },
    state.tagId !== undefined && {
      kind: 'Tag',
      name: names.tag ?? `tag ${state.tagId}`,
      clear: () => go({ tagId: undefined }),
    },
  ].filter((chip) => chip !== false);
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Chosen filters">
      {chips.map((chip) => (
        <li key={chip.kind}>
          <span>
            {chip.kind}: {chip.name}
          </span>
          <button
            type="button"
            aria-label={`Remove the filter ${chip.kind}: ${chip.name}`}
            onClick={chip.clear}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
