// The hash chain of a tenant's change history (docs/api.md, "Tamper evidence"): each sealed entry
// has its place (seq, 1, 2, 3… per tenant) and a hash over the entry as stored and the hash of the
// entry before it, so that deleting an entry leaves a gap in the places and editing one breaks
// its hash and every later link. What the hash covers is written here once, for the sealing job,
// `omni history verify` and the export file's check alike.
import { createHash } from 'node:crypto';

/** An entry as stored: the texts exactly as the table holds them. */
export interface StoredEntry {
  seq: number;
  id: number;
  tenantId: number;
  /** changed_at as ISO text in UTC to the microsecond (what the column holds, not a JS Date's ms). */
  changedAt: string;
  resource: string;
  resourceId: string;
  action: string;
  version: number;
  actor: string;
  context: string;
  data: string | null;
  hash: string | null;
}

/** The columns of a StoredEntry, as a select list of change_history (`alias`: its alias, if any). */
export function storedColumns(alias?: string): string {
  const a = alias ? `${alias}.` : '';
  return `${a}seq, ${a}id, ${a}tenant_id as "tenantId",
    to_char(${a}changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "changedAt",
    ${a}resource, ${a}resource_id as "resourceId", ${a}action, ${a}version, ${a}actor,
    ${a}context, ${a}data, ${a}hash`;
}

/**
 * The text an entry's hash is taken over: a JSON array of its place, id, tenant, time, resource,
 * resource id, action, version, the actor's, context's and data's stored texts, and the previous
 * entry's hash ('' before the first). A JSON array, so no value can pass for a neighbour's.
 */
export function canonicalText(entry: Omit<StoredEntry, 'hash'>, previousHash: string): string {
  return JSON.stringify([
    entry.seq,
    entry.id,
    entry.tenantId,
    entry.changedAt,
    entry.resource,
    entry.resourceId,
    entry.action,
    entry.version,
    entry.actor,
    entry.context,
    entry.data,
    previousHash,
  ]);
}

/** The entry's hash: sha256, lower-case hex, of its canonical text. */
export function entryHash(entry: Omit<StoredEntry, 'hash'>, previousHash: string): string {
  return createHash('sha256').update(canonicalText(entry, previousHash)).digest('hex');
}

/** A tenant's chain: its last sealed entry, and the last pruned one (where verification starts). */
export interface ChainHead {
  sealedSeq: number;
  sealedHash: string;
  prunedSeq: number;
  prunedHash: string;
}

export const CHAIN_COLUMNS = `sealed_seq as "sealedSeq", sealed_hash as "sealedHash",
  pruned_seq as "prunedSeq", pruned_hash as "prunedHash"`;
