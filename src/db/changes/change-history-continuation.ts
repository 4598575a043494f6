// The continuation of a history page: where the next page starts (the last entry's changed_at,
// to the microsecond, and id) and a check digit over the tenant, the query it was issued for and
// that position. A token altered, cut, of another tenant or sent with other filters is 400
// InvalidHistoryContinuation, never a 500 or a page of something else. Unsigned on purpose: the
// position only chooses where a page of the caller's own entries starts, so a client that forged
// one could read nothing it may not read anyway; the check is against mistakes, not secrecy.
import { createHash } from 'node:crypto';
import { invalid } from '../../domain/domain-error.ts';
import type { ChangePageKey } from './change-history-reads.ts';

const VERSION = 1;
const MAX_INT8 = 2n ** 63n - 1n;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const invalidHistoryContinuation = () =>
  invalid(
    'InvalidHistoryContinuation',
    'The continuation is not one this server issued for this query.',
    [{ Field: 'Continuation', Message: 'not a continuation of this query' }],
  );

const digest = (tenantId: number, query: string, position: string) =>
  createHash('sha256')
    .update(`${tenantId}\n${query}\n${position}`)
    .digest()
    .subarray(0, 12)
    .toString('base64url');

/** Whether the text names a real instant (not the 30th of February). */
function isRealTime(time: string): boolean {
  const parsed = new Date(`${time.slice(0, 23)}Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === `${time.slice(0, 23)}Z`;
}

/** The token that continues a page of `query` (any text naming it) after `last`. */
export function issueContinuation(tenantId: number, query: string, last: ChangePageKey): string {
  const position = Buffer.from(JSON.stringify([VERSION, last.time, last.id])).toString('base64url');
  return `${position}.${digest(tenantId, query, position)}`;
}

/** Where a token issued for this tenant and query continues; else 400. */
export function openContinuation(tenantId: number, query: string, token: string): ChangePageKey {
  const [position, check, extra] = token.split('.');
  if (!position || !check || extra !== undefined) throw invalidHistoryContinuation();
  if (check !== digest(tenantId, query, position)) throw invalidHistoryContinuation();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(position, 'base64url').toString('utf8'));
  } catch {
    throw invalidHistoryContinuation();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== VERSION ||
    typeof parsed[1] !== 'string' ||
    !TIME.test(parsed[1]) ||
    typeof parsed[2] !== 'string' ||
    !/^-?\d{1,19}$/.test(parsed[2]) ||
    !isRealTime(parsed[1]) ||
    BigInt(parsed[2]) > MAX_INT8 ||
    BigInt(parsed[2]) < -MAX_INT8
  )
    throw invalidHistoryContinuation();
  return { time: parsed[1], id: parsed[2] };
}
