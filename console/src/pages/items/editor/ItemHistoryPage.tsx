// An item's History tab (items/{id}/history): its changes in words, with the catalog's names for
// the ids they mention (price types, brands, tags…). It shows for a deleted item too, whose
// history outlives it.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiFailure, call, client } from '../../../api.ts';
import { catalogChoices } from '../../../catalog.ts';
import { ErrorMessage, Loading, PageTitle } from '../../../components.tsx';
import { ResourceHistory } from '../../history/ResourceHistory.tsx';
import { ResourceTabs } from '../../history/ResourceTabs.tsx';
import { namesOfChoices } from '../../history/history-words.ts';
import { PageLink } from '../../PageLink.tsx';
import { lastItemsListPath } from '../items-url.ts';
import '../items.css';

async function loadItemHistoryPage(id: number) {
  const [choices, item] = await Promise.all([
    catalogChoices(),
    call(client.GET('/private/catalog/item/{id}', { params: { path: { id } } })).catch(
      (error: unknown) => {
        if (error instanceof ApiFailure && error.status === 404) return undefined;
        throw error;
      },
    ),
  ]);
  return { names: namesOfChoices(choices), item };
}

export function ItemHistoryPage({ id }: { id: number }) {
  const page = useQuery({
    queryKey: ['item-history-page', id],
    queryFn: () => loadItemHistoryPage(id),
    gcTime: 0,
  });
  const names = useMemo(() => page.data?.names ?? {}, [page.data]);
  if (page.isPending) return <Loading />;
  if (!page.data) return <ErrorMessage error={page.error} />;
  const { item } = page.data;
  return (
    <div className="item-editor">
      <PageTitle>{item ? `Item ${id}: ${item.Title}` : `Item ${id} (deleted)`}</PageTitle>
      <p>
        <PageLink to={lastItemsListPath()}>Back to items</PageLink>
      </p>
      <ResourceTabs base={`items/${id}`} view="history" label={`Item ${id}`} />
      <ResourceHistory kind="item" id={id} names={names} onRestored={() => page.refetch()} />
    </div>
  );
}
