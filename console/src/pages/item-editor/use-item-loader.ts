// What the item editor needs before it shows: the catalog choices, the item (none for a new
// one) and the other items of its variant group, fetched together.
import { call, client } from '../../api.ts';
import { catalogChoices } from '../../catalog.ts';
import { useLoad } from '../../components.tsx';

async function loadItemEditor(id: number | undefined) {
  const [choices, item, variants] = await Promise.all([
    catalogChoices(),
    id === undefined
      ? undefined
      : call(client.GET('/private/catalog/item/{id}', { params: { path: { id } } })),
    id === undefined
      ? undefined
      : call(
          client.GET('/private/catalog/items/search', {
            params: { query: { defaultItemId: id, take: 100 } },
          }),
        ),
  ]);
  return { choices, item, variants: variants?.Results.filter((v) => v.Id !== id) ?? [] };
}

/** Loads the editor's data for item `id` (undefined: a new item) whenever `id` changes. */
export function useItemLoader(id: number | undefined) {
  return useLoad(() => loadItemEditor(id), [id]);
}
