// A route whose JSON body may be left out (`schema.optionalBody`): a request without one, or with
// an empty one under a JSON Content-Type (json-body.ts), is validated and handled as `{}`, and
// the OpenAPI document says the body is not required (openapi-operations.ts).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** The route's preValidation hook: no body is the empty object. */
export function bodyOrEmpty(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  request.body ??= {};
  done();
}
