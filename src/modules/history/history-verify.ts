// Verification of a tenant's hash chain (docs/api.md, "Tamper evidence"): `omni history verify`.
// In the database: the sealed entries walked by place from the last pruned one, each hash
// recomputed, the first missing place (a deleted entry) or mismatch (an edited one) named. In an
// export file: each line's hash recomputed from the line, each line linked to the one before when
// their places follow each other, the line rebuilt from what its hash covers (so no other member
// was changed either), and, with the database, each entry still there as exported.
import type { RawSql } from '../../db/connection/database.ts';
import {
  CHAIN_COLUMNS,
  entryHash,
  storedColumns,
  type ChainHead,
  type StoredEntry,
} from './history-chain.ts';
import { exportLine, rawMembers } from './history-export.ts';

export type Verdict =
  | { intact: true; count: number; first: number; last: number; pruned?: number }
  | { intact: false; problem: string };

/** Entries read per statement. */
const PAGE = 1000;

const describe = (e: StoredEntry) =>
  `Id ${e.id}, ${e.resource} ${e.resourceId} version ${e.version}, changed ${e.changedAt}`;

export async function verifyChain(sql: RawSql, tenantId: number): Promise<Verdict> {
  const [head] = await sql.query<ChainHead>(
    `select ${CHAIN_COLUMNS} from change_history_chains where tenant_id = $1`,
    [tenantId],
  );
  if (!head) return { intact: true, count: 0, first: 0, last: 0 };
  let seq = head.prunedSeq;
  let hash = head.prunedHash;
  let count = 0;
  for (;;) {
    const rows = await sql.query<StoredEntry>(
      `select ${storedColumns()} from change_history
        where tenant_id = $1 and seq is not null and seq > $2 order by seq limit $3`,
      [tenantId, seq, PAGE],
    );
    for (const row of rows) {
      if (row.seq !== seq + 1) return missing(seq + 1, row.seq);
      if (entryHash(row, hash) !== row.hash)
        return {
          intact: false,
          problem: `Sequence ${row.seq} (${describe(row)}) was altered: its hash does not match its content and the entry before it.`,
        };
      seq = row.seq;
      hash = row.hash;
      count++;
    }
    if (rows.length < PAGE) break;
  }
  if (seq < head.sealedSeq) return missing(seq + 1, undefined);
  if (seq > head.sealedSeq || hash !== head.sealedHash)
    return {
      intact: false,
      problem: `The chain's head (Sequence ${head.sealedSeq}) does not match its last entry (Sequence ${seq}).`,
    };
  return { intact: true, count, first: head.prunedSeq + 1, last: seq };
}

function missing(seq: number, next: number | undefined): Verdict {
  return {
    intact: false,
    problem:
      next === undefined
        ? `Sequence ${seq} is missing: the last sealed entries were deleted.`
        : `Sequence ${seq} is missing: ${next - seq === 1 ? 'that entry was' : `entries ${seq}..${next - 1} were`} deleted.`,
  };
}

interface FileEntry extends StoredEntry {
  seq: number;
  hash: string;
  previousHash: string | null;
  line: number;
}

/** The entry an export line holds, checked against its own hash; a problem as a string. */
function entryOfLine(text: string, line: number, tenantId: number): FileEntry | string {
  let members: Map<string, string>;
  try {
    members = rawMembers(text);
  } catch (error) {
    return `Line ${line} is not a JSON object (${(error as Error).message}).`;
  }
  const json = (name: string): unknown => {
    const raw = members.get(name);
    return raw === undefined ? undefined : JSON.parse(raw);
  };
  const data = members.get('Data');
  const entry = {
    seq: json('Sequence'),
    id: json('Id'),
    tenantId,
    changedAt: json('ChangedAt'),
    resource: json('ResourceType'),
    resourceId: json('ResourceId'),
    action: json('Action'),
    version: json('Version'),
    actor: members.get('Actor'),
    context: members.get('Context'),
    data: data === 'null' ? null : data,
    hash: json('Hash'),
    previousHash: json('PreviousHash'),
    line,
  } as FileEntry;
  const typed =
    Number.isSafeInteger(entry.seq) &&
    Number.isSafeInteger(entry.id) &&
    Number.isSafeInteger(entry.version) &&
    [entry.changedAt, entry.resource, entry.resourceId, entry.action, entry.hash].every(
      (v) => typeof v === 'string',
    ) &&
    entry.actor !== undefined &&
    entry.context !== undefined &&
    entry.data !== undefined &&
    (entry.previousHash === null || typeof entry.previousHash === 'string');
  if (!typed) return `Line ${line} is not an entry of a history export.`;
  if (entry.previousHash === null)
    return `Line ${line} (Sequence ${entry.seq}): the entry before it was missing when it was exported.`;
  let rebuilt: string;
  try {
    rebuilt = exportLine(entry);
  } catch {
    rebuilt = '';
  }
  if (entryHash(entry, entry.previousHash) !== entry.hash || rebuilt !== `${text}\n`)
    return `Line ${line} (Sequence ${entry.seq}, Id ${entry.id}) was altered: it does not match its hash.`;
  return entry;
}

/**
 * Checks an export file's lines (without their newlines) of the tenant; with `sql`, also that
 * each entry is still in the database as exported (or was pruned since).
 */
export async function verifyExport(
  lines: AsyncIterable<string>,
  tenantId: number,
  sql?: RawSql,
): Promise<Verdict> {
  let previous: FileEntry | undefined;
  let count = 0;
  let first = 0;
  let pruned = 0;
  let pending: FileEntry[] = [];
  const compare = async (): Promise<string | undefined> => {
    if (!sql || pending.length === 0) return undefined;
    const batch = pending;
    pending = [];
    const [head] = await sql.query<ChainHead>(
      `select ${CHAIN_COLUMNS} from change_history_chains where tenant_id = $1`,
      [tenantId],
    );
    const stored = new Map(
      (
        await sql.query<StoredEntry>(
          `select ${storedColumns()} from change_history
            where tenant_id = $1 and seq = any($2::bigint[])`,
          [tenantId, batch.map((e) => e.seq)],
        )
      ).map((e) => [e.seq, e]),
    );
    for (const entry of batch) {
      const now = stored.get(entry.seq);
      if (!now) {
        if (head && entry.seq <= head.prunedSeq) {
          pruned++;
          continue;
        }
        return `Line ${entry.line} (Sequence ${entry.seq}, Id ${entry.id}) is no longer in the database: it was deleted.`;
      }
      if (now.hash !== entry.hash || entryHash(now, entry.previousHash!) !== entry.hash)
        return `Line ${entry.line} (Sequence ${entry.seq}, Id ${entry.id}) was changed in the database since the export.`;
    }
    return undefined;
  };
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    const entry = entryOfLine(text, line, tenantId);
    if (typeof entry === 'string') return { intact: false, problem: entry };
    if (previous && entry.seq <= previous.seq)
      return {
        intact: false,
        problem: `Line ${line} (Sequence ${entry.seq}) is out of order: the line before it is Sequence ${previous.seq}.`,
      };
    if (previous && entry.seq === previous.seq + 1 && entry.previousHash !== previous.hash)
      return {
        intact: false,
        problem: `Line ${line} (Sequence ${entry.seq}) does not link to the line before it.`,
      };
    if (!previous) first = entry.seq;
    previous = entry;
    count++;
    pending.push(entry);
    if (pending.length >= PAGE) {
      const problem = await compare();
      if (problem) return { intact: false, problem };
    }
  }
  const problem = await compare();
  if (problem) return { intact: false, problem };
  return {
    intact: true,
    count,
    first,
    last: previous?.seq ?? 0,
    ...(sql ? { pruned } : {}),
  };
}
