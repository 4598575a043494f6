// Catalog reference data the editors offer as choices: every brand, tag, price type, attribute
// type and category (lists are read in pages of 1000, the API's largest).
import { api, type Page } from './api.ts';
import type { AttributeType, Category, Named, PriceType } from './types.ts';

/** Every entry of a list, or its first `max` (a map of 100,000 stores would help nobody). */
export async function allPages<T>(path: string, max = Infinity): Promise<T[]> {
  const all: T[] = [];
  for (let skip = 0; ; skip += 1000) {
    const take = Math.min(1000, max - all.length);
    const page = await api<Page<T>>('GET', path, { query: { skip, take } });
    all.push(...page.Results);
    if (all.length >= Math.min(page.TotalCount, max) || page.Results.length === 0) return all;
  }
}

export async function categoryTree(): Promise<Category[]> {
  return (await api<{ Categories: Category[] }>('GET', '/private/catalog/categories')).Categories;
}

/** The tree as a list in display order, each with its depth and path of names. */
export function flattenTree(
  nodes: Category[],
  depth = 0,
  path = '',
): { category: Category; depth: number; path: string }[] {
  return nodes.flatMap((category) => {
    const here = path ? `${path} / ${category.Name}` : category.Name;
    return [
      { category, depth, path: here },
      ...flattenTree(category.CategoryTreeItems ?? [], depth + 1, here),
    ];
  });
}

export interface CatalogChoices {
  brands: Named[];
  tags: Named[];
  priceTypes: PriceType[];
  attributeTypes: AttributeType[];
  categories: { category: Category; depth: number; path: string }[];
}

export async function catalogChoices(): Promise<CatalogChoices> {
  const [brands, tags, priceTypes, attributeTypes, tree] = await Promise.all([
    allPages<Named>('/private/catalog/brands'),
    allPages<Named>('/private/catalog/tags'),
    allPages<PriceType>('/private/catalog/pricetypes'),
    allPages<AttributeType>('/private/catalog/dynamicattributetypes'),
    categoryTree(),
  ]);
  return { brands, tags, priceTypes, attributeTypes, categories: flattenTree(tree) };
}
