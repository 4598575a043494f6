// Turns every failure into the contract's error body: our ApiErrors, the services' DomainErrors
// (domain-errors.ts), schema validation, Fastify's own body-parsing errors, unknown routes, and
// anything unexpected (500, logged).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sqlStateOf } from '../db/queries/constraint-violation.ts';
import { isDatabaseUnavailable } from '../db/connection/connection-loss.ts';
import { DomainError } from '../domain/domain-error.ts';
import { splitUnlisted } from '../domain/bounded-validation.ts';
import { validationErrors } from '../domain/validation-issues.ts';
import { generalConstraintError } from './constraint-errors.ts';
import { apiErrorOf } from './domain-errors.ts';
import { ApiError, type FieldError } from './errors.ts';
import { serializeErrorBody } from './error-body.ts';

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UnsupportedMediaType',
    message: 'The request body must be sent as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'InvalidContentLength',
    message: 'Content-Length does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PayloadTooLarge',
    message: 'The request body is larger than this server accepts.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'EmptyBody',
    message: 'The request has no body; this operation takes a JSON body.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'MalformedJson',
    message: 'The request body is not valid JSON.',
  },
};

const EMPTY_BODY = FASTIFY_CODES.FST_ERR_CTP_EMPTY_JSON_BODY!;

/** What a 503 for an unreachable database asks the client to wait (the pool reconnects by then). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send(
      serializeErrorBody(
        reply.request.id,
        error.code,
        error.message,
        error.errors,
        error.errorsOmitted,
      ),
    );
}

interface DatabaseError extends Error {
  code: string;
}

/** The driver's error behind a failed query: the error itself, or the cause of a wrapper. */
export function databaseErrorOf(error: Error): DatabaseError | undefined {
  for (const candidate of [error, error.cause]) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (candidate instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return candidate as DatabaseError;
  }
  return undefined;
}

/** The description names the first few errors; Errors lists up to MAX_LISTED_ERRORS. */
const SUMMARIZED_ERRORS = 10;

function summaryOf(errors: FieldError[], unlisted: number): string {
  const named = errors.slice(0, SUMMARIZED_ERRORS).map((e) => `${e.Field} ${e.Message}`);
  const more = errors.length - named.length + unlisted;
  return `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return apiErrorOf(error);
  if (error.validation) {
    const { listed, unlisted } = splitUnlisted(error.validation);
    const errors = validationErrors(listed, error.validationContext);
    return new ApiError(
      400,
      'ValidationFailed',
      `The request is not valid: ${summaryOf(errors, unlisted)}.`,
      {
        errors,
        errorsOmitted: unlisted,
      },
    );
  }
  const constraintError = generalConstraintError(error);
  if (constraintError) return constraintError;
  // PostgreSQL data exceptions (class 22: a NUL character in text, a number out of range …)
  // come from values the client sent: they are bad input, not server failures.
  const sqlState = sqlStateOf(error);
  if (sqlState?.startsWith('22')) {
    return new ApiError(
      400,
      'InvalidValue',
      'A value in the request cannot be stored (for example a NUL character in a text).',
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      503,
      'DatabaseUnavailable',
      'The database cannot be reached right now; nothing was changed. Send the request again later.',
      { headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } },
    );
  }
  const known = FASTIFY_CODES[error.code];
  if (known) return new ApiError(known.status, known.code, known.message);
  if (error instanceof SyntaxError)
    return new ApiError(400, 'MalformedJson', 'The request body is not valid JSON.');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, 'BadRequest', error.message);
  return new ApiError(
    500,
    'InternalError',
    'The server failed to handle this request; quote IdentifierGuid when reporting it.',
  );
}

/**
 * Errors Fastify meets before routing (a URL that is not valid percent-encoded UTF-8, a path
 * parameter longer than the router takes): given as the server's `frameworkErrors` option, so
 * that they too get the contract's body instead of Fastify's own.
 */
export function sendFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  reply.header('X-Request-Id', request.id);
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError(400, 'MalformedUrl', 'The URL is not valid percent-encoded UTF-8.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ApiError(414, 'UrlTooLong', 'A part of the URL is longer than this server accepts.')
        : toApiError(error);
  // Not Fastify's message, which quotes the whole URL: the URL goes in its own field, which the
  // logger redacts (credentials in the query string; log-redaction.ts).
  request.log.info(
    { code: error.code, status: apiError.statusCode, url: request.url },
    apiError.message,
  );
  return sendError(reply, apiError);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // No body at all, with or without a JSON content type (json-body.ts), is one error.
    const apiError =
      error.validationContext === 'body' && request.body === undefined
        ? new ApiError(EMPTY_BODY.status, EMPTY_BODY.code, EMPTY_BODY.message)
        : toApiError(error);
    // A failed query is logged by its SQLSTATE and message only: the driver's error, and any
    // error that wraps it, may carry the query's parameters, which may hold secrets.
    if (apiError.statusCode >= 500) {
      const dbError = databaseErrorOf(error);
      const details = dbError
        ? { database: { code: dbError.code, message: dbError.message } }
        : { err: error };
      request.log.error(details, 'request failed');
    } else request.log.info({ code: apiError.code, status: apiError.statusCode }, apiError.message);
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ApiError(
        404,
        'RouteNotFound',
        `No operation answers ${request.method} ${request.url.split('?')[0]}.`,
      ),
    ),
  );
}
