// A resource's History tab: its entries newest first, and on each but the latest (and but a
// delete) a Restore button (for a member who may change the catalog). Restoring asks first, sends the version the
// tab shows as the latest (a change made since is refused with 409 and shown), then reloads the
// history, whose first entry is the restore itself, and the page's own data (`onRestored`).
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage, Loading, useFocusAfter } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import { HistoryEntries } from './HistoryEntries.tsx';
import {
  historyKeys,
  resourceHistory,
  restoreVersion,
  type HistoryEntry,
  type HistoryKind,
} from './history-api.ts';
import { timeWords, type NameBook } from './history-words.ts';
import './history.css';

const NOUNS: Record<HistoryKind, string> = { item: 'item', brand: 'brand', category: 'category' };

export function ResourceHistory(props: {
  kind: HistoryKind;
  id: number;
  names: NameBook;
  onRestored?: () => Promise<unknown>;
}) {
  const { kind, id } = props;
  const editable = useAccess().can('catalog', 'write');
  const queries = useQueryClient();
  const history = useInfiniteQuery({
    queryKey: historyKeys.resource(kind, id),
    queryFn: ({ pageParam }) => resourceHistory(kind, id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.Continuation ?? undefined,
  });
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [resultRef, focusResult] = useFocusAfter<HTMLDivElement>();
  const entries = history.data?.pages.flatMap((page) => page.Results) ?? [];
  const latest = entries[0];

  const restore = async (entry: HistoryEntry) => {
    if (!latest) return;
    setStatus('');
    setFailure(undefined);
    const question =
      `Restore this ${NOUNS[kind]} to version ${entry.Version} (${timeWords(entry.ChangedAt)})? ` +
      'This is saved as a new change; the later changes stay in the history.';
    if (!confirm(question)) return;
    setBusy(true);
    try {
      await restoreVersion(kind, id, entry.Version, latest.Version);
      setStatus(`Restored version ${entry.Version}.`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
    focusResult();
    // After a refusal too: a change made meanwhile (409) is then on the list.
    await Promise.all([
      queries.invalidateQueries({ queryKey: historyKeys.all }),
      props.onRestored?.(),
    ]);
  };

  return (
    <section className="panel history-panel" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <div ref={resultRef} tabIndex={-1} className="action-result">
        {failure !== undefined ? (
          <ErrorMessage error={failure} />
        ) : (
          <p role="status" className="ok">
            {status}
          </p>
        )}
      </div>
      {history.isPending && <Loading />}
      <ErrorMessage error={history.error} />
      {history.data && (
        <HistoryEntries
          label={`Changes of this ${NOUNS[kind]}, newest first`}
          entries={entries}
          names={props.names}
          hasMore={history.hasNextPage}
          loadingMore={history.isFetchingNextPage}
          loadMore={() => history.fetchNextPage()}
          actions={(entry, index) =>
            // A delete cannot be restored (409 HistoryVersionNotRestorable): the version before it can.
            editable &&
            index > 0 &&
            entry.Action !== 'deleted' && (
              <button type="button" disabled={busy} onClick={() => void restore(entry)}>
                Restore<span className="visually-hidden"> version {entry.Version}</span>
              </button>
            )
          }
        />
      )}
    </section>
  );
}
