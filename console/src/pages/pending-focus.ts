// Focus that an action asks for once the page shows what the action did: the saved row's Edit
// button, the created row, the moved category. When the action reloads a list, the element may
// not be there yet (a new row) or be there only in its old place (a moved category, which React
// mounts anew under its new parent), so such a request waits for the reloaded data; then it
// focuses the element, or the fallback (the list) when the element is not on the page.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

interface Request {
  selector: string;
  fallback: RefObject<HTMLElement | null> | undefined;
  /** The data the page showed when asked; undefined: focus as soon as the element is there. */
  before: unknown;
  waitsForReload: boolean;
}

/**
 * `data` is what the page's load answered (a reload answers a new object); `root` is where the
 * selectors look. Answers `focusLater(selector, { afterReload, fallback })`.
 */
export function usePendingFocus(data: unknown, root: RefObject<HTMLElement | null>) {
  const pending = useRef<Request | undefined>(undefined);
  const shown = useRef(data);
  shown.current = data;
  const [, setAsked] = useState(0);
  useEffect(() => {
    const request = pending.current;
    if (!request) return;
    if (request.waitsForReload && data === request.before) return;
    const element = root.current?.querySelector<HTMLElement>(request.selector);
    const target = element ?? request.fallback?.current;
    if (!target && !request.waitsForReload) return; // not rendered yet: the next render tries
    pending.current = undefined;
    target?.focus();
  });
  return useCallback(
    (
      selector: string,
      options: { afterReload?: boolean; fallback?: RefObject<HTMLElement | null> } = {},
    ) => {
      pending.current = {
        selector,
        fallback: options.fallback,
        before: shown.current,
        waitsForReload: options.afterReload ?? false,
      };
      setAsked((n) => n + 1);
    },
    [],
  );
}

/** A CSS attribute selector's value, quoted. */
export const quoted = (value: string | number) => JSON.stringify(String(value));
