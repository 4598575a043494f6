// History entries as the API shows them (docs/api.md, "Change history"), from the rows
// src/db/changes/change-history-reads.ts reads: who, when, from where, and what changed (the
// difference from the previous version's data), with the data itself on a single version.
import { changesBetween, withoutSecrets, type FieldChange } from './change-diff.ts';
import type { ChangeActor } from './change-context.ts';
import { changePage, type ChangeFilter, type ChangeRow } from './change-history-reads.ts';
import type { RawSql } from '../connection/database.ts';
import { issueContinuation, openContinuation } from './change-history-continuation.ts';

export interface HistoryEntryJson {
  Id: number;
  ResourceType: string;
  ResourceId: string;
  Action: 'created' | 'updated' | 'deleted' | 'restored' | 'status_changed';
  Version: number;
  PreviousVersion: number | null;
  ChangedAt: string;
  Actor: ChangeActor;
  RequestId?: string;
  ClientAddress?: string;
  UserAgent?: string;
  IdempotencyKey?: string;
  Operation?: string;
  RestoredFrom?: number;
  Changes: FieldChange[];
  Sequence: number | null;
  Hash: string | null;
  Data?: unknown;
}

export interface HistoryPageJson {
  Results: HistoryEntryJson[];
  Continuation: string | null;
}

const CONTEXT_TEXTS = ['RequestId', 'ClientAddress', 'UserAgent', 'IdempotencyKey', 'Operation'];

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The documents of a page, each parsed once: an entry's data is the previous version of the
 * entry after it on one resource's page. The parsed values are only read, never changed.
 */
function parsedOnce(): (text: string | null) => unknown {
  const seen = new Map<string, unknown>();
  return (text) => {
    if (text === null) return null;
    if (!seen.has(text)) seen.set(text, parsed(text));
    return seen.get(text);
  };
}

/** An entry as the API shows it; with its Data on a single version's read. */
export function historyEntryOf(
  row: ChangeRow,
  withData = false,
  parse: (text: string | null) => unknown = parsed,
): HistoryEntryJson {
  const data = parse(row.data);
  const context = (parsed(row.context) ?? {}) as Record<string, unknown>;
  const actor = (parsed(row.actor) ?? { Type: 'System' }) as ChangeActor;
  const before = row.action === 'created' ? null : parse(row.previous_data);
  const after = row.action === 'deleted' ? null : data;
  const restore = context.Restore as { FromVersion?: unknown } | undefined;
  const entry: HistoryEntryJson = {
    Id: Number(row.id),
    ResourceType: row.resource,
    ResourceId: row.resource_id,
    Action: row.action as HistoryEntryJson['Action'],
    Version: row.version,
    PreviousVersion: row.action === 'created' || row.version <= 1 ? null : row.version - 1,
    ChangedAt: `${row.changed_key.slice(0, 23)}Z`,
    Actor: actor,
    Changes: changesBetween(before, after),
    Sequence: row.seq === null ? null : Number(row.seq),
    Hash: row.hash,
  };
  for (const name of CONTEXT_TEXTS) {
    const value = context[name];
    if (typeof value === 'string') (entry as unknown as Record<string, unknown>)[name] = value;
  }
  if (row.action === 'restored' && typeof restore?.FromVersion === 'number')
    entry.RestoredFrom = restore.FromVersion;
  if (withData) entry.Data = withoutSecrets(data);
  return entry;
}

/**
 * One page of entries, newest first, continuing `continuation` (a token of this tenant and
 * `query`, the text that names what is listed: 400 InvalidHistoryContinuation otherwise).
 */
export async function historyPage(
  sql: RawSql,
  tenantId: number,
  query: string,
  filter: ChangeFilter,
  take: number,
  continuation?: string,
): Promise<HistoryPageJson> {
  const after =
    continuation === undefined ? undefined : openContinuation(tenantId, query, continuation);
  // One more than the page, to know whether another follows.
  const rows = await changePage(sql, tenantId, filter, take + 1, after);
  const page = rows.slice(0, take);
  const last = page.at(-1);
  const parse = parsedOnce();
  return {
    Results: page.map((row) => historyEntryOf(row, false, parse)),
    Continuation:
      rows.length > take && last
        ? issueContinuation(tenantId, query, { time: last.changed_key, id: last.id })
        : null,
  };
}
