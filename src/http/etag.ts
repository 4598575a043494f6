// ETag and If-Match (contract §4, concurrency): a resource's ETag comes from its row version,
// and a write with a stale If-Match is refused with 412 before anything changes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Versioned } from '../db/queries/row-version.ts';
import type { VersionCheck } from '../domain/version-check.ts';
import { preconditionFailed } from './errors.ts';

export type { VersionCheck };

/**
 * The headers schema of every write that checks If-Match (with `checkIfMatch` and its kin), so
 * that the document shows the header; the route answers 412 as well.
 */
export const IfMatchHeaders = Type.Object({
  'If-Match': Type.Optional(
    Type.String({
      description:
        'The ETag of the version this change is based on, as a GET or an earlier write answered ' +
        'it (several, comma-separated, or `*` for any). 412 PreconditionFailed when the resource ' +
        'has changed since; without the header the change applies to whatever version is current.',
    }),
  ),
});

/** What the description of an operation that honours If-Match says of it. */
export const IF_MATCH_NOTE =
  'With If-Match, 412 PreconditionFailed when the resource changed since that ETag.';

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

/** The ETag of a resource with an integer row version. */
export const versionTag = (version: number) => `v${version}`;

export function setVersionEtag(reply: FastifyReply, version: number): void {
  setEtag(reply, versionTag(version));
}

/** Checks If-Match against an integer row version (give it to a service as its version check). */
export const ifMatchVersion =
  (request: FastifyRequest): VersionCheck =>
  (version: number): void =>
    checkIfMatch(request, versionTag(version));

/** Sets the ETag of a versioned resource and answers the resource itself. */
export function withVersionEtag<T>(reply: FastifyReply, { value, version }: Versioned<T>): T {
  setVersionEtag(reply, version);
  return value;
}

/** Checks If-Match against any row version (give it to a service as its version check). */
export const ifMatch =
  (request: FastifyRequest) =>
  (version: string | number | Date): void =>
    checkIfMatch(request, version);

/** Sets the ETag of a resource whose version is a timestamp or text, and answers the resource. */
export function withEtag<T>(
  reply: FastifyReply,
  { value, version }: { value: T; version: string | number | Date },
): T {
  setEtag(reply, version);
  return value;
}
