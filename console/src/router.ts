// A small history router: the console's pages are paths under /console/ (the server answers
// index.html for each), so links can be bookmarked and the back button works. A page with unsaved
// changes can ask to confirm before the console leaves it (guardLeaving): links that navigate,
// the browser's Back and Forward (popstate), and closing or reloading the tab (beforeunload).
import { useSyncExternalStore } from 'react';
import { CONSOLE_BASE } from './auth.ts';

export const BASE = CONSOLE_BASE;

const listeners = new Set<() => void>();
/** The address shown now: where Back returns to when leaving is not confirmed. */
let shown = location.pathname + location.search;

/** Says why leaving needs a confirmation (the question asked), or undefined when it does not. */
export type LeaveCheck = () => string | undefined;
let leaveCheck: LeaveCheck | undefined;

/** Whether the page may be left: no guard, nothing unsaved, or the person confirms. */
function mayLeave(): boolean {
  const question = leaveCheck?.();
  return question === undefined || confirm(question);
}

window.addEventListener('popstate', () => {
  const target = location.pathname + location.search;
  if (target === shown) return;
  if (!mayLeave()) {
    // Back (or Forward) is already done when popstate fires: the page's address comes back.
    history.pushState(null, '', shown);
    return;
  }
  shown = target;
  listeners.forEach((l) => l());
});

window.addEventListener('beforeunload', (event) => {
  if (leaveCheck?.() === undefined) return;
  // The browser asks with its own words (it shows no page text).
  event.preventDefault();
  event.returnValue = '';
});

/**
 * Asks `check` before each navigation away (see mayLeave) until the returned function is
 * called; one guard at a time (the page shown).
 */
export function guardLeaving(check: LeaveCheck): () => void {
  leaveCheck = check;
  shown = location.pathname + location.search;
  return () => {
    if (leaveCheck === check) leaveCheck = undefined;
  };
}

/**
 * Shows `path` (under /console/, with its search string). Answers false when the page's guard
 * kept it (the person chose to stay). `force` skips the guard (after saving or deleting);
 * `replace` changes the current history entry instead of adding one.
 */
export function navigate(
  path: string,
  options: { force?: boolean; replace?: boolean } = {},
): boolean {
  if (!options.force && !mayLeave()) return false;
  const target = BASE + path.replace(/^\//, '');
  if (options.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  shown = location.pathname + location.search;
  listeners.forEach((l) => l());
  return true;
}

/** The path after /console/ ('' for the dashboard), with the search string. */
export function useRoute(): { path: string; search: URLSearchParams } {
  const href = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => location.pathname + location.search,
  );
  const url = new URL(href, location.origin);
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) : '';
  return { path: path.replace(/\/$/, ''), search: url.searchParams };
}
