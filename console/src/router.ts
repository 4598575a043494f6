// A small history router: the console's pages are paths under /console/ (the server answers
// index.html for each), so links can be bookmarked and the back button works.
import { useSyncExternalStore } from 'react';

export const BASE = '/console/';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(path: string): void {
  history.pushState(null, '', BASE + path.replace(/^\//, ''));
  listeners.forEach((l) => l());
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
