// The item editor's save: busy while it runs, the failure's field errors next to their fields
// (by the API's field paths, with the editor's labels) until the field changes, the banner's
// sentence gone once no field error is left. The editor keeps its own form model (price,
// attribute and tag rows, images), which a form library's flat fields would not fit.
import { useCallback, useMemo, useState } from 'react';
import { explainFailure, type FieldLabels } from '../../../error-messages.ts';

/**
 * Runs an async action; `busy` while it runs, `error` when it failed. The failure's field errors
 * go next to their fields (`fieldError(path)`, with the form's `labels`) and leave when the field
 * changes (`clearField(path)`); `message` is the banner's sentence, gone when no error is left.
 */
export function useSaveAction(labels: FieldLabels = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setErrorState] = useState<unknown>();
  const [cleared, setCleared] = useState<ReadonlySet<string>>(new Set());
  const labelsKey = JSON.stringify(labels);
  const explained = useMemo(
    () => (error === undefined ? undefined : explainFailure(error, labels)),
    // Labels are usually a literal written in the render: compared by value.
    [error, labelsKey],
  );
  const setError = useCallback((failure: unknown) => {
    setCleared(new Set());
    setErrorState(failure);
  }, []);
  const run = useCallback(
    async (action: () => Promise<unknown>): Promise<boolean> => {
      setBusy(true);
      setError(undefined);
      try {
        await action();
        return true;
      } catch (failure) {
        setError(failure);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [setError],
  );
  const open = explained ? Object.keys(explained.fields).filter((path) => !cleared.has(path)) : [];
  const fieldsWereAll = explained !== undefined && Object.keys(explained.fields).length > 0;
  // Once every field error is fixed, the banner that spoke of them goes too.
  const message =
    explained === undefined || (fieldsWereAll && open.length === 0) ? undefined : explained.message;
  return {
    run,
    busy,
    error: message === undefined ? undefined : error,
    setError,
    message,
    fieldError: (path: string): string | undefined =>
      cleared.has(path) ? undefined : explained?.fields[path],
    clearField: (path: string) => {
      if (explained?.fields[path] !== undefined && !cleared.has(path))
        setCleared((previous) => new Set([...previous, path]));
    },
  };
}
