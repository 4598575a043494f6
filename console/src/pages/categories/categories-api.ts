// The category tree as the Categories page reads it: one call for the whole tree (the API's
// tree names no node's parent: it is where the tree holds it), and what the page derives from it.
import { categoryTree } from '../../catalog.ts';
import type { Category } from '../../types.ts';

export const treeKey = ['categories', 'tree'] as const;
export const loadTree = categoryTree;
/** The value of "(top level)" in the parent lists. */
export const TOP = '';

/** A category's place: its parent (null at the top) and its name with its ancestors'. */
export interface Place {
  parentId: number | null;
  path: string;
}

/** Every category's place, from the tree's nesting. */
export function placesOf(nodes: Category[]): Map<number, Place> {
  const places = new Map<number, Place>();
  const walk = (level: Category[], parent: number | null, above: string) => {
    for (const category of level) {
      const here = above ? `${above} / ${category.Name}` : category.Name;
      places.set(category.Id, { parentId: parent, path: here });
      walk(category.CategoryTreeItems ?? [], category.Id, here);
    }
  };
  walk(nodes, null, '');
  return places;
}

/** The ids of a category and all its descendants (none of them can become its parent). */
export function subtreeIds(category: Category): Set<number> {
  const ids = new Set<number>();
  const walk = (node: Category) => {
    ids.add(node.Id);
    for (const child of node.CategoryTreeItems ?? []) walk(child);
  };
  walk(category);
  return ids;
}

export const CATEGORY_LABELS = {
  Name: 'Name',
  ParentCategoryId: 'Parent',
  ShortDescription: 'Short description',
  LongDescription: 'Long description',
};
