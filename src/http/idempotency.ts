// Idempotent POST and PATCH (IETF httpapi Idempotency-Key draft; Stripe's behaviour): a request
// that carries `Idempotency-Key` runs once per key; a retry with the same key and the same
// request gets the stored answer (status, the headers below, body bytes) without running again.
// The same key with another request is 422; while the first request still runs, 409. Keys belong
// to the caller within its tenant, the token's principal: the app of an app's token, the member of
// a console member's token (never the console client all members share). Routes without a token
// (/oauth/*) ignore the header. Requests refused before their handler ran (token, scope, rate
// limit, schema validation) claim nothing; 5xx answers are not stored (the key is freed, so a
// retry can run).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from './idempotency-key.ts';
import type { Principal } from './authentication.ts';
import type { IdempotencyStore, KeyClaim, KeyOwner, StoredAnswer } from './idempotency-store.ts';

/** Sent on every answer that is a stored one (Stripe's name). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The headers of an answer that belong to it and are sent again with it. X-Request-Id too: it is
 * the IdentifierGuid of a stored error body and names the log line of the request that ran.
 */
const STORED_HEADERS = [
  'content-type',
  'location',
  'content-location',
  'etag',
  'last-modified',
  'x-request-id',
];

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request holds while it runs (set by the preHandler hook below). */
    idempotencyClaim: KeyClaim | null;
  }
}

const keyReused = () =>
  new ApiError(
    422,
    'IdempotencyKeyReused',
    'This Idempotency-Key was used with another request (method, URL or body); use a new key for a new request.',
  );

const keyInUse = () =>
  new ApiError(
    409,
    'IdempotencyKeyInUse',
    'A request with this Idempotency-Key is still running; send it again once that one has answered.',
    { headers: { 'Retry-After': '1' } },
  );

function isStream(body: unknown): boolean {
  return typeof (body as { pipe?: unknown } | null | undefined)?.pipe === 'function';
}

/**
 * What makes two requests the same request: method, URL (path and query), the physical device of
 * an identity token, and the body as parsed. A streamed body (raw asset upload) cannot be read
 * before it runs: its content type and length stand for it.
 */
export function requestFingerprint(request: FastifyRequest): string {
  const hash = createHash('sha256')
    .update(`${request.method}\n${request.url}\n${request.principal.deviceId ?? ''}\n`)
    .update(
      isStream(request.body)
        ? `stream ${request.headers['content-type'] ?? ''} ${request.headers['content-length'] ?? ''}`
        : request.body === undefined
          ? ''
          : `json ${JSON.stringify(request.body)}`,
    );
  return hash.digest('base64url');
}

/** Whose keys a request's are: its member's for a member token, else its app's. */
export function keyOwner(principal: Principal): KeyOwner {
  return principal.memberId !== undefined
    ? { kind: 'member', id: principal.memberId }
    : { kind: 'app', id: principal.appId };
}

function payloadBytes(payload: unknown): Buffer | undefined {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (typeof payload === 'string') return Buffer.from(payload);
  if (Buffer.isBuffer(payload)) return payload;
  if (payload instanceof Uint8Array) return Buffer.from(payload);
  return undefined; // a stream: not stored
}

function storedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function replay(request: FastifyRequest, reply: FastifyReply, answer: StoredAnswer): void {
  request.log.info(
    { replayOf: answer.headers['x-request-id'], status: answer.statusCode },
    'idempotent replay',
  );
  reply.code(answer.statusCode).headers(answer.headers).header(REPLAYED_HEADER, 'true');
  if (answer.body.length === 0 && answer.headers['content-type'] === undefined) reply.send();
  else reply.send(answer.body);
}

export function registerIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  app.decorateRequest('idempotencyClaim', null);

  // After validation (a request the schema refuses claims nothing) and before the handler. A
  // callback hook: a request without the header costs no promise.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return done();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || !request.principal) return done();
    let key: string;
    try {
      key = parseIdempotencyKey(header);
    } catch (error) {
      return done(error as Error);
    }
    store
      .claim(
        request.principal.tenantId,
        keyOwner(request.principal),
        key,
        requestFingerprint(request),
      )
      .then((outcome) => {
        switch (outcome.kind) {
          case 'claimed':
            request.idempotencyClaim = outcome.claim;
            return done();
          case 'replay':
            return replay(request, reply, outcome.answer);
          case 'reused':
            return done(keyReused());
          case 'running':
            return done(keyInUse());
        }
      }, done);
  });

  // The answer is stored before it leaves: a retry that follows it at once finds it stored.
  app.addHook('onSend', (request, reply, payload, done) => {
    const claim = request.idempotencyClaim;
    if (!claim) return done(null, payload);
    request.idempotencyClaim = null;
    const body = payloadBytes(payload);
    const settle =
      reply.statusCode >= 500 || body === undefined
        ? store.release(claim)
        : store.complete(claim, {
            statusCode: reply.statusCode,
            headers: storedHeaders(reply),
            body,
          });
    settle.then(
      () => done(null, payload),
      (error: unknown) => {
        // The request itself succeeded or failed already; its answer still goes out. The key
        // stays claimed until its lease ends, and a retry after that runs the request again.
        request.log.error({ err: error }, 'could not store the answer of an idempotent request');
        done(null, payload);
      },
    );
  });
}
