// What a failed call throws: the status and the contract's error body (contract §4), or the
// token endpoint's RFC 6749 §5.2 body.
import type { components } from './generated/openapi.ts';

/** The error body of every non-2xx answer except the token endpoint's. */
export type ErrorBody = components['schemas']['ErrorBody'];

/** The token endpoint's error body (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The contract's error body, when the value is one (an answer from a proxy may be anything). */
export function asErrorBody(value: unknown): ErrorBody | undefined {
  if (!isRecord(value)) return undefined;
  const { IdentifierGuid, IdentifierTick, FriendlyDescription, Code, Errors } = value;
  if (
    typeof IdentifierGuid !== 'string' ||
    typeof IdentifierTick !== 'number' ||
    typeof FriendlyDescription !== 'string' ||
    typeof Code !== 'string'
  )
    return undefined;
  const fields = Array.isArray(Errors)
    ? Errors.filter(
        (e): e is { Field: string; Message: string } =>
          isRecord(e) && typeof e.Field === 'string' && typeof e.Message === 'string',
      )
    : undefined;
  return {
    IdentifierGuid,
    IdentifierTick,
    FriendlyDescription,
    Code,
    ...(fields ? { Errors: fields } : {}),
  };
}

/** A non-2xx answer of the API. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The contract's error body; undefined when the answer carried none (e.g. from a proxy). */
  readonly body: ErrorBody | undefined;
  /** The stable machine code (`body.Code`), e.g. `ItemNotFound`, `IdempotencyKeyReused`. */
  readonly code: string | undefined;
  /** X-Request-Id of the answer: quote it to the API's operators. */
  readonly requestId: string | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const errorBody = asErrorBody(body);
    const fields = errorBody?.Errors?.length
      ? ` (${errorBody.Errors.map((e) => `${e.Field}: ${e.Message}`).join('; ')})`
      : '';
    super(
      `${response.status} ${errorBody?.Code ?? response.statusText}: ${
        errorBody?.FriendlyDescription ?? 'the API answered without its error body'
      }${fields}`,
    );
    this.status = response.status;
    this.body = errorBody;
    this.code = errorBody?.Code;
    this.requestId = response.headers.get('X-Request-Id') ?? errorBody?.IdentifierGuid;
    this.response = response;
  }
}

/** The token endpoint refused to issue a token. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly status: number;
  /** RFC 6749 §5.2 `error`: invalid_client, invalid_scope, … */
  readonly error: string;
  readonly description: string | undefined;

  constructor(status: number, body: unknown) {
    const error = isRecord(body) && typeof body.error === 'string' ? body.error : 'server_error';
    const description =
      isRecord(body) && typeof body.error_description === 'string'
        ? body.error_description
        : undefined;
    super(`token request refused (${status} ${error})${description ? `: ${description}` : ''}`);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

/** What every openapi-fetch call resolves to. */
export type CallResult<Data> = Success<Data> | { data?: never; error: unknown; response: Response };

type Success<Data> = { data: Data; error?: never; response: Response };

/** The data of a call's successful answer (its failure branch has no `data`). */
export type DataOf<Result> = Result extends { data: infer Data } ? Data : never;

// openapi-fetch answers a non-2xx with `error` set to its parsed body, or undefined when it had none.
function succeeded<Data>(result: CallResult<Data>): result is Success<Data> {
  return result.response.ok && result.error === undefined;
}

/**
 * The data of a call's answer, or its failure thrown as an ApiError:
 * `const item = await ok(client.GET('/private/catalog/item/{id}', …))`.
 */
export function ok<Result extends CallResult<unknown>>(
  call: Promise<Result>,
): Promise<DataOf<Result>>;
// The signature above infers the data from the success branch alone (inferring it from both
// branches of the union would add the failure branch's undefined).
export async function ok(call: Promise<CallResult<unknown>>): Promise<unknown> {
  const result = await call;
  if (!succeeded(result)) throw new ApiError(result.response, result.error);
  return result.data;
}
