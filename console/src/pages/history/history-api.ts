// The change history through the typed client: a resource's entries (GET <resource>/{id}/history),
// the tenant's (GET /management/history), both newest first in pages joined by a Continuation
// token, and a restore (POST <resource>/{id}/history/{version}/restore) that says which version
// it expects to be the latest, so that a change made meanwhile is refused (409 HistoryConflict)
// rather than undone unseen.
import { call, client } from '../../api.ts';
import type { HistoryEntry, HistoryFilters, HistoryPage } from '../../types.ts';

/** The resources whose pages show a History tab (and can be restored). */
export type HistoryKind = 'item' | 'brand' | 'category';

export type { HistoryEntry, HistoryPage };

/** Entries per page ("Load more" asks for the next). */
export const HISTORY_TAKE = 20;

export function resourceHistory(
  kind: HistoryKind,
  id: number,
  continuation: string | undefined,
): Promise<HistoryPage> {
  const query = { Take: HISTORY_TAKE, ...(continuation ? { Continuation: continuation } : {}) };
  const params = { path: { id }, query };
  switch (kind) {
    case 'item':
      return call(client.GET('/private/catalog/item/{id}/history', { params }));
    case 'brand':
      return call(client.GET('/private/catalog/brand/{id}/history', { params }));
    case 'category':
      return call(client.GET('/private/catalog/category/{id}/history', { params }));
  }
}

/** The Activity page's filters, as the query of GET /management/history names them. */
export type ActivityFilters = HistoryFilters;

export function tenantHistory(
  filters: ActivityFilters,
  continuation: string | undefined,
): Promise<HistoryPage> {
  const query = {
    ...filters,
    Take: HISTORY_TAKE,
    ...(continuation ? { Continuation: continuation } : {}),
  };
  return call(client.GET('/management/history', { params: { query } }));
}

/** Restores the resource to `version`, refused when its latest version is not `expected`. */
export function restoreVersion(
  kind: HistoryKind,
  id: number,
  version: number,
  expected: number,
): Promise<unknown> {
  const params = { path: { id, version } };
  const body = { ExpectedVersion: expected };
  switch (kind) {
    case 'item':
      return call(
        client.POST('/private/catalog/item/{id}/history/{version}/restore', { params, body }),
      );
    case 'brand':
      return call(
        client.POST('/private/catalog/brand/{id}/history/{version}/restore', { params, body }),
      );
    case 'category':
      return call(
        client.POST('/private/catalog/category/{id}/history/{version}/restore', { params, body }),
      );
  }
}

/** The query keys: a restore invalidates the resource's history and the tenant's. */
export const historyKeys = {
  all: ['history'] as const,
  resource: (kind: HistoryKind, id: number) => ['history', kind, id] as const,
  tenant: (filters: ActivityFilters) => ['history', 'tenant', filters] as const,
};
