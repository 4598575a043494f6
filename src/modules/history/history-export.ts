// The export of a tenant's sealed change history (docs/api.md, "Export"): NDJSON, oldest first by
// Sequence, read a page at a time by place in the chain so that memory stays bounded whatever
// the range. Each line is the entry as the history shows it, with Data, Sequence and Hash, and
// what its hash covers as stored: Actor, Context and Data are the stored JSON texts written into
// the line as they are, ChangedAt to the microsecond, and PreviousHash the hash it links to, so
// that `omni history verify --file` recomputes every line's hash from the file alone
// (history-verify.ts reads them back with rawMembers below).
import type { RawSql } from '../../db/connection/database.ts';
import { storedColumns, type StoredEntry } from './history-chain.ts';

export interface ExportRange {
  /** ChangedAt from (inclusive), ISO date-time. */
  from?: string;
  /** ChangedAt to (exclusive), ISO date-time. */
  to?: string;
  resourceType?: string;
}

/** Entries read per statement. */
const PAGE = 500;

interface ExportRow extends StoredEntry {
  seq: number;
  hash: string;
  previousHash: string | null;
}

const CONTEXT_FIELDS = [
  'RequestId',
  'ClientAddress',
  'UserAgent',
  'IdempotencyKey',
  'Operation',
] as const;

/** One line of the export, with its newline. */
export function exportLine(row: ExportRow): string {
  const context = JSON.parse(row.context) as Record<string, unknown>;
  const members: string[] = [
    `"Id":${row.id}`,
    `"ResourceType":${JSON.stringify(row.resource)}`,
    `"ResourceId":${JSON.stringify(row.resourceId)}`,
    `"Action":${JSON.stringify(row.action)}`,
    `"Version":${row.version}`,
    `"PreviousVersion":${row.version > 1 ? row.version - 1 : 'null'}`,
    `"ChangedAt":${JSON.stringify(row.changedAt)}`,
    `"Actor":${row.actor}`,
  ];
  for (const field of CONTEXT_FIELDS)
    if (typeof context[field] === 'string')
      members.push(`"${field}":${JSON.stringify(context[field])}`);
  const restore = context.Restore as { FromVersion?: unknown } | undefined;
  if (row.action === 'restored' && typeof restore?.FromVersion === 'number')
    members.push(`"RestoredFrom":${restore.FromVersion}`);
  members.push(
    `"Sequence":${row.seq}`,
    `"Hash":${JSON.stringify(row.hash)}`,
    `"PreviousHash":${JSON.stringify(row.previousHash)}`,
    `"Context":${row.context}`,
    `"Data":${row.data ?? 'null'}`,
  );
  return `{${members.join(',')}}\n`;
}

/**
 * The tenant's sealed entries in the range, oldest first by Sequence, as export lines. Each
 * entry's PreviousHash is the hash of the entry before it in the chain: the last pruned one's
 * for the first kept, '' for the first ever, null when that entry is gone (verify names it).
 */
export async function* exportLines(
  sql: RawSql,
  tenantId: number,
  range: ExportRange,
): AsyncGenerator<string> {
  const params: unknown[] = [tenantId, 0, PAGE];
  const filters: string[] = [];
  if (range.from !== undefined) filters.push(`h.changed_at >= $${params.push(range.from)}`);
  if (range.to !== undefined) filters.push(`h.changed_at < $${params.push(range.to)}`);
  if (range.resourceType !== undefined)
    filters.push(`h.resource = $${params.push(range.resourceType)}`);
  const text = `
    select ${storedColumns('h')},
           case when h.seq = 1 then ''
                when h.seq - 1 = c.pruned_seq then c.pruned_hash
                else (select p.hash from change_history p
                       where p.tenant_id = $1 and p.seq = h.seq - 1) end as "previousHash"
      from change_history h
      left join change_history_chains c on c.tenant_id = $1
     where h.tenant_id = $1 and h.seq is not null and h.seq > $2
       ${filters.map((f) => `and ${f}`).join(' ')}
     order by h.seq limit $3`;
  for (;;) {
    const rows = await sql.query<ExportRow>(text, params);
    for (const row of rows) yield exportLine(row);
    if (rows.length < PAGE) return;
    params[1] = rows.at(-1)!.seq;
  }
}

/**
 * The top-level members of a JSON object text, each as the exact text of its value (a stored
 * JSON text written into an export line comes back byte for byte, which JSON.parse would not
 * give: it drops the stored spacing). Throws a SyntaxError when the line is not a JSON object.
 */
export function rawMembers(line: string): Map<string, string> {
  const members = new Map<string, string>();
  let at = skipSpace(line, 0);
  if (line[at] !== '{') throw new SyntaxError('not a JSON object');
  at = skipSpace(line, at + 1);
  if (line[at] === '}') return finish(line, at, members);
  for (;;) {
    if (line[at] !== '"') throw new SyntaxError(`a member name expected at ${at}`);
    const keyEnd = endOfValue(line, at);
    const key = JSON.parse(line.slice(at, keyEnd)) as string;
    at = skipSpace(line, keyEnd);
    if (line[at] !== ':') throw new SyntaxError(`":" expected at ${at}`);
    const start = skipSpace(line, at + 1);
    const end = endOfValue(line, start);
    members.set(key, line.slice(start, end));
    at = skipSpace(line, end);
    if (line[at] === '}') return finish(line, at, members);
    if (line[at] !== ',') throw new SyntaxError(`"," or "}" expected at ${at}`);
    at = skipSpace(line, at + 1);
  }
}

function finish(line: string, at: number, members: Map<string, string>): Map<string, string> {
  // The whole line must be one valid JSON text: this also checks every value scanned.
  JSON.parse(line);
  if (skipSpace(line, at + 1) !== line.length) throw new SyntaxError('text after the object');
  return members;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
}

/** Where the JSON value starting at `at` ends (the index after it). */
function endOfValue(text: string, at: number): number {
  let depth = 0;
  let i = at;
  do {
    const c = text[i];
    if (c === undefined) throw new SyntaxError('unexpected end of the line');
    if (c === '"') {
      i++;
      while (text[i] !== '"') {
        if (text[i] === undefined) throw new SyntaxError('unterminated string');
        i += text[i] === '\\' ? 2 : 1;
      }
      i++;
    } else if (c === '{' || c === '[') {
      depth++;
      i++;
    } else if (c === '}' || c === ']') {
      depth--;
      i++;
    } else if (depth > 0) {
      i++;
    } else {
      while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    }
  } while (depth > 0);
  return i;
}
