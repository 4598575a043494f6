// What the item editor needs before it shows: the catalog choices, the item (none for a new
// one) and the items of its variant group (its default item and variants).
import { call, client } from '../../api.ts';
import { catalogChoices } from '../../catalog.ts';
import { useLoad } from '../../components.tsx';
import type { Item } from '../../types.ts';

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
  const item = await call(client.GET('/private/catalog/item/{id}', { params: { path: { id } } }));
  return { item, group: await variantGroup(item.DefaultItemId) };
}

async function loadItemEditor(id: number | undefined) {
  const [choices, loaded] = await Promise.all([
    catalogChoices(),
    id === undefined ? undefined : itemWithGroup(id),
  ]);
  return { choices, item: loaded?.item, group: loaded?.group ?? [] };
}

/** Loads the editor's data for item `id` (undefined: a new item) whenever `id` changes. */
export function useItemLoader(id: number | undefined) {
  return useLoad(() => loadItemEditor(id), [id]);
}
