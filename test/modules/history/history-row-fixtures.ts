// What the coverage tests of the change history read: a tenant's entries, straight from the
// change_history table (the history's read API is tested on its own), and the actors they name.
import { expect } from 'vitest';
import type { TestApi, TestTenant } from '../../support/test-api.ts';

export interface EntryRow {
  resource: string;
  resource_id: string;
  action: string;
  version: number;
  actor: Record<string, unknown>;
  context: Record<string, unknown>;
  data: Record<string, unknown> | null;
}

interface RawRow {
  id: string | number;
  resource: string;
  resource_id: string;
  action: string;
  version: string | number;
  actor: string;
  context: string;
  data: string | null;
}

async function tenantId(api: TestApi, tenant: TestTenant): Promise<number> {
  return (await api.services.tenants.findByName(tenant.name))!.id;
}

/** Where a tenant's history stands: entries after it are those of what a test does next. */
export async function historyMark(api: TestApi, tenant: TestTenant): Promise<number> {
  const [row] = await api.database.handle.query<{ id: string | null }>(
    'select max(id)::text as id from change_history where tenant_id = $1',
    [await tenantId(api, tenant)],
  );
  return Number(row?.id ?? 0);
}

/** The tenant's entries recorded after `mark`, oldest first. */
export async function entriesAfter(
  api: TestApi,
  tenant: TestTenant,
  mark: number,
): Promise<EntryRow[]> {
  const rows = await api.database.handle.query<RawRow>(
    `select id, resource, resource_id, action, version, actor, context, data from change_history
      where tenant_id = $1 and id > $2 order by id`,
    [await tenantId(api, tenant), mark],
  );
  return rows.map((r) => ({
    resource: r.resource,
    resource_id: r.resource_id,
    action: r.action,
    version: Number(r.version),
    actor: JSON.parse(r.actor) as Record<string, unknown>,
    context: JSON.parse(r.context) as Record<string, unknown>,
    data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
  }));
}

/**
 * Runs `write` and answers the single entry it recorded; fails unless it recorded exactly one,
 * of `resource`.
 */
export async function onlyEntryOf(
  api: TestApi,
  tenant: TestTenant,
  resource: string,
  write: () => Promise<unknown>,
): Promise<EntryRow> {
  const mark = await historyMark(api, tenant);
  await write();
  const entries = await entriesAfter(api, tenant, mark);
  expect(entries.map((e) => `${e.resource}:${e.resource_id}:${e.action}`)).toHaveLength(1);
  expect(entries[0]!.resource).toBe(resource);
  return entries[0]!;
}

/** The tenant's bootstrap app, as an entry names it. */
export function appActor(tenant: TestTenant): Record<string, unknown> {
  return expect.objectContaining({ Type: 'App', Id: tenant.appId }) as Record<string, unknown>;
}

/** Whether any entry of any tenant holds `text` anywhere (a secret must never be there). */
export async function historyHolds(api: TestApi, text: string): Promise<boolean> {
  const [row] = await api.database.handle.query<{ found: boolean }>(
    `select exists (select 1 from change_history h where strpos(h::text, $1) > 0) as found`,
    [text],
  );
  return row!.found;
}
