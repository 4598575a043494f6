// A list of change history entries, newest first, each in words: what changed (one line per
// field), who changed it and when; optionally the resource it belongs to (the Activity page) and
// a Restore button (a resource's History tab). "Load more" asks for the next page and moves the
// focus to the first entry it brought.
import { useRef, type ReactNode } from 'react';
import { focusLater, Loading } from '../../components.tsx';
import type { HistoryEntry } from './history-api.ts';
import {
  actionWords,
  actorWords,
  changeWords,
  listedChanges,
  timeWords,
  type HistoryActor,
  type NameBook,
} from './history-words.ts';

export function HistoryEntries(props: {
  label: string;
  entries: HistoryEntry[];
  names: NameBook;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => Promise<unknown>;
  /** What leads each entry (the resource's link on the Activity page). */
  lead?: (entry: HistoryEntry) => ReactNode;
  /** What follows each entry (its Restore button). */
  actions?: (entry: HistoryEntry, index: number) => ReactNode;
  /** The actor's words as a control (the Activity page's "only this actor" filter). */
  actor?: (actor: HistoryActor, words: string) => ReactNode;
}) {
  const { entries, names } = props;
  const list = useRef<HTMLOListElement>(null);
  const more = async () => {
    const shown = entries.length;
    await props.loadMore();
    focusLater(() => list.current?.querySelectorAll<HTMLElement>('li.history-entry')[shown]);
  };
  if (entries.length === 0) return <p>No changes recorded.</p>;
  return (
    <>
      <ol className="history" aria-label={props.label} ref={list}>
        {entries.map((entry, index) => {
          const changes = listedChanges(entry);
          const who = actorWords(entry.Actor);
          const when = new Date(entry.ChangedAt);
          return (
            <li
              key={entry.Id}
              className="history-entry"
              data-entry={entry.Id}
              data-version={entry.Version}
              tabIndex={-1}
            >
              <p className="history-what">
                {props.lead?.(entry)}
                <strong>{actionWords(entry)}</strong>
              </p>
              {changes.length > 0 && (
                <ul className="history-changes">
                  {changes.map((change) => (
                    <li key={change.Path}>{changeWords(change, names)}</li>
                  ))}
                </ul>
              )}
              <p className="history-who">
                by {props.actor ? props.actor(entry.Actor, who) : who},{' '}
                <time dateTime={entry.ChangedAt} title={when.toLocaleString()}>
                  {timeWords(entry.ChangedAt)}
                </time>
                <span className="history-version"> · version {entry.Version}</span>
              </p>
              {props.actions?.(entry, index)}
            </li>
          );
        })}
      </ol>
      {props.loadingMore && <Loading label="Loading more changes…" />}
      {props.hasMore && (
        <button type="button" disabled={props.loadingMore} onClick={() => void more()}>
          Load more<span className="visually-hidden"> changes</span>
        </button>
      )}
    </>
  );
}
