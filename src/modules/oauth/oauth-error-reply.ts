// The token endpoint's errors answer RFC 6749 §5.2 bodies, not the API's, with no-store.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../db/connection/connection-loss.ts';
import { knownApiError } from '../../http/domain-errors.ts';
import { sendError, toApiError } from '../../http/error-handler.ts';
import { OAuthError, invalidRequest, oauthErrors } from './oauth-errors.ts';
import { FORM, FORM_BODY_LIMIT_BYTES } from './token-schemas.ts';

/** Bodies refused before they are read (token-routes.ts): their status, in the RFC 6749 body. */
const UNREAD_BODIES: Record<string, OAuthError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new OAuthError(
    415,
    'invalid_request',
    `The request body must be ${FORM}.`,
  ),
  FST_ERR_CTP_BODY_TOO_LARGE: new OAuthError(
    413,
    'invalid_request',
    `The request body is larger than the ${FORM_BODY_LIMIT_BYTES} bytes this endpoint reads.`,
  ),
};

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.message });
}

/** The error handler of the token, revocation and metadata routes. */
export function oauthErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof OAuthError) return sendOAuthError(reply, error);
  const unread = UNREAD_BODIES[error.code];
  if (unread) return sendOAuthError(reply, unread);
  // Host and version problems are not OAuth errors: they keep the API's error body.
  const known = knownApiError(error);
  if (known && (known.statusCode === 404 || known.statusCode === 406))
    return sendError(reply, known);
  // The database (on Citus, the tenant's worker) cannot be reached: 503 with Retry-After and the
  // API's body, as every route answers it (docs/operations.md, "Fault isolation").
  if (isDatabaseUnavailable(error)) return sendError(reply, toApiError(error));
  if (error.validation || known || (error.statusCode ?? 500) < 500) {
    return sendOAuthError(reply, invalidRequest(`The request is not valid: ${error.message}`));
  }
  request.log.error({ err: error }, 'token endpoint failed');
  return sendOAuthError(reply, oauthErrors.serverError());
}
