// ETag and If-Match (contract §4, concurrency): a resource's ETag comes from its row version,
// and a write with a stale If-Match is refused with 412 before anything changes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preconditionFailed } from './errors.ts';

export function etagFor(version: string | number | Date): string {
  const value = version instanceof Date ? version.getTime().toString(36) : String(version);
  return `"${value}"`;
}

export function setEtag(reply: FastifyReply, version: string | number | Date): void {
  reply.header('ETag', etagFor(version));
}

/** Throws 412 when the request has an If-Match that the current version does not satisfy. */
export function checkIfMatch(
  request: FastifyRequest,
  currentVersion: string | number | Date,
): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const current = etagFor(currentVersion);
  const accepted = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (accepted.includes('*') || accepted.includes(current)) return;
  throw preconditionFailed();
}
