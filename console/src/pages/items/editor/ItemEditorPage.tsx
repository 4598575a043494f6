// The item editor's route (items/new or items/{id}): loads what the editor needs, then shows it.
// items/{id}/history is the item's History tab.
import { ErrorMessage, Loading } from '../../../components.tsx';
import { useAccess } from '../../../session.tsx';
import { viewOf } from '../../history/ResourceTabs.tsx';
import { ItemEditor } from './ItemEditor.tsx';
import { ItemHistoryPage } from './ItemHistoryPage.tsx';
import { useItemLoader } from './use-item-loader.ts';

export default function ItemEditorPage({ path }: { path: string }) {
  const raw = path.split('/')[1] ?? 'new';
  const id = raw === 'new' ? undefined : Number(raw);
  // The tab is there only for a member who may read the history; its address alone shows the item.
  const readsHistory = useAccess().can('history', 'read');
  if (id !== undefined && readsHistory && viewOf(path) === 'history')
    return <ItemHistoryPage id={id} />;
  return <ItemDetails id={id} />;
}

function ItemDetails({ id }: { id: number | undefined }) {
  const { data, error, isPending } = useItemLoader(id);
  if (isPending) return <Loading />;
  if (!data) return <ErrorMessage error={error ?? undefined} />;
  // A fresh editor for each item, so no form state carries over from the previous one.
  return <ItemEditor key={id ?? 'new'} id={id} {...data} />;
}
