// Catalog reference data the editors offer as choices: every brand, tag, price type, attribute
// type and category (lists are read in pages of 1000, the API's largest).
import {
  pages,
  type CallResult,
  type ListPage,
  type PageRange,
} from '@omnichannel/management-client';
import { call, client, failureOf } from './api.ts';
import type { AttributeType, Brand, Category, PriceType, Tag } from './types.ts';

/** Every entry of a list, or its first `max` (a map of 100,000 stores would help nobody). */
export async function allPages<Row>(
  fetchPage: (range: PageRange) => Promise<CallResult<ListPage<Row>>>,
  max = Infinity,
): Promise<Row[]> {
  const all: Row[] = [];
  try {
    for await (const row of pages(fetchPage, { take: Math.min(1000, max) })) {
      all.push(row);
      if (all.length >= max) break;
    }
  } catch (error) {
    throw failureOf(error);
  }
  return all;
}

export async function categoryTree(): Promise<Category[]> {
  return (await call(client.GET('/private/catalog/categories'))).Categories;
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
  brands: Brand[];
  tags: Tag[];
  priceTypes: PriceType[];
  attributeTypes: AttributeType[];
  categories: { category: Category; depth: number; path: string }[];
}

export async function catalogChoices(): Promise<CatalogChoices> {
  const [brands, tags, priceTypes, attributeTypes, tree] = await Promise.all([
    allPages((range) => client.GET('/private/catalog/brands', { params: { query: range } })),
    allPages((range) => client.GET('/private/catalog/tags', { params: { query: range } })),
    allPages((range) => client.GET('/private/catalog/pricetypes', { params: { query: range } })),
    allPages((range) =>
      client.GET('/private/catalog/dynamicattributetypes', { params: { query: range } }),
    ),
    categoryTree(),
  ]);
  return { brands, tags, priceTypes, attributeTypes, categories: flattenTree(tree) };
}
