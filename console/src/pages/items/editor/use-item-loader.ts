// What the item editor needs before it shows: the catalog choices, the item (none for a new
// one) and the items of its variant group (its default item and variants).
import { call, client } from '../../../api.ts';
import { catalogChoices } from '../../../catalog.ts';
import { useQuery } from '@tanstack/react-query';
import type { Item } from '../../../types.ts';
import { loadImages } from './item-images.ts';

/** The items of the variant group whose default item is `defaultItemId` (it included). */
export async function variantGroup(defaultItemId: number | null): Promise<Item[]> {
  if (defaultItemId === null) return [];
  const page = await call(
    client.GET('/private/catalog/items/search', {
      params: { query: { defaultItemId, take: 1000 } },
    }),
  );
  return page.Results;
}

async function itemWithGroup(id: number) {
  const [item, images] = await Promise.all([
    call(client.GET('/private/catalog/item/{id}', { params: { path: { id } } })),
    loadImages(id),
  ]);
  return { item, images, group: await variantGroup(item.DefaultItemId) };
}

async function loadItemEditor(id: number | undefined) {
  const [choices, loaded] = await Promise.all([
    catalogChoices(),
    id === undefined ? undefined : itemWithGroup(id),
  ]);
  return {
    choices,
    item: loaded?.item,
    images: loaded?.images ?? [],
    group: loaded?.group ?? [],
  };
}

/**
 * Loads the editor's data for item `id` (undefined: a new item), anew at each visit: the form
 * starts from what the API has now (never from a cached answer).
 */
export function useItemLoader(id: number | undefined) {
  return useQuery({
    queryKey: ['item-editor', id ?? 'new'],
    queryFn: () => loadItemEditor(id),
    gcTime: 0,
  });
}
