// Request bodies sent as JSON. Clients built on jQuery (and others) put
// `Content-Type: application/json` on every request, a DELETE or a body-less POST action
// included, with no body at all: such a request is a request without a body, as it would be
// without the header. Only a route that takes a body answers an empty one with 400 EmptyBody
// (error-handler.ts), as before, unless its body is optional (optional-body.ts).
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { JsonDepthGauge, MAX_JSON_DEPTH } from './json-depth.ts';

type Done = (error: Error | null, body?: unknown) => void;
type ParseText = (request: FastifyRequest, body: string, done: Done) => void;

/** Whether an empty body is refused: the route has a body schema and does not make it optional. */
const takesBody = (request: FastifyRequest) =>
  request.routeOptions.schema?.body !== undefined &&
  request.routeOptions.schema.optionalBody !== true;

const tooDeep = () =>
  new ApiError(
    400,
    'JsonTooDeep',
    `The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no operation takes that.`,
  );

/**
 * Reads a JSON body from its stream: within the route's body limit (413 as Fastify's own reader
 * answers it), its nesting measured chunk by chunk so that a body too deep is refused at its
 * first level too many, before the rest is read (the answer's lingering close reads and drops
 * what the client still sends: lingering-close.ts).
 */
function readJsonBody(
  request: FastifyRequest,
  payload: Readable,
  parse: ParseText,
  done: Done,
): void {
  const limit = request.routeOptions.bodyLimit;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const gauge = new JsonDepthGauge(MAX_JSON_DEPTH);
  const chunks: Buffer[] = [];
  let received = 0;
  const stopReading = () => {
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', onEnd);
  };
  const fail = (error: Error) => {
    stopReading();
    done(error);
  };
  function onData(chunk: Buffer | string) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limit) return fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    if (gauge.tooDeep(bytes)) return fail(tooDeep());
    chunks.push(bytes);
  }
  function onEnd(error?: Error & { statusCode?: number }) {
    if (error) {
      // A stream's error (the client gone, an aborted body) is the client's: 400, as Fastify's.
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400))
        error.statusCode = 400;
      return fail(error);
    }
    if (!Number.isNaN(contentLength) && received !== contentLength)
      return fail(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    stopReading();
    if (received === 0 && !takesBody(request)) return done(null, undefined);
    parse(request, Buffer.concat(chunks, received).toString('utf8'), done);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

export function registerJsonBodies(app: FastifyInstance): void {
  // Fastify's own parser, with its defaults (`__proto__` and `constructor.prototype` refused);
  // it is the callback form of a body parser.
  const parse = app.getDefaultJsonParser('error', 'error') as ParseText;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request, payload, done: Done) =>
    readJsonBody(request, payload as Readable, parse, done),
  );
}

/**
 * For a scope that takes other media types only (a streamed upload): a JSON content type with no
 * body is no body; with a body it is 415, as any type the scope does not take.
 */
export function acceptEmptyJson(scope: FastifyInstance, message: string): void {
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request, body: string, done: Done) => {
      if (body.length === 0) return done(null, undefined);
      done(new ApiError(415, 'UnsupportedMediaType', message));
    },
  );
}
