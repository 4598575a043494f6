// Request bodies sent as JSON. Clients built on jQuery (and others) put
// `Content-Type: application/json` on every request, a DELETE or a body-less POST action
// included, with no body at all: such a request is a request without a body, as it would be
// without the header. Only a route that takes a body answers an empty one with 400 EmptyBody
// (error-handler.ts), as before.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

type Done = (error: Error | null, body?: unknown) => void;

const takesBody = (request: FastifyRequest) => request.routeOptions.schema?.body !== undefined;

const tooDeep = () =>
  new ApiError(
    400,
    'JsonTooDeep',
    `The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no operation takes that.`,
  );

export function registerJsonBodies(app: FastifyInstance): void {
  // Fastify's own parser, with its defaults (`__proto__` and `constructor.prototype` refused);
  // it is the callback form of a body parser.
  const parse = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: Done,
  ) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body: string, done: Done) => {
      if (body.length === 0 && !takesBody(request)) return done(null, undefined);
      // Refused before JSON.parse builds the levels (json-depth.ts).
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) return done(tooDeep());
      parse(request, body, done);
    },
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
