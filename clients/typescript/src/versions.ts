// A resource's version as the API gives it: the ETag of its fetch, create or update, sent back as
// If-Match to change only the version read (412 PreconditionFailed otherwise) and as
// If-None-Match to fetch it again only when it changed (304 Not Modified otherwise).
import { ApiError, type CallResult, type DataOf } from './errors.ts';

/** An answer's data with the version it is of. */
export interface Versioned<Data> {
  data: Data;
  /** The answer's ETag: send it as If-Match or If-None-Match. */
  etag: string;
}

function etagOf(response: Response): string {
  const etag = response.headers.get('ETag');
  if (etag === null) throw new Error(`${response.url} answered no ETag`);
  return etag;
}

/**
 * The data of an answer that carries an ETag (a resource's fetch, create or update) and the
 * ETag; a non-2xx answer is thrown as an ApiError:
 * `const { data: brand, etag } = await withEtag(client.GET('/private/catalog/brand/{id}', …))`.
 */
export function withEtag<Result extends CallResult<unknown>>(
  call: Promise<Result>,
): Promise<Versioned<DataOf<Result>>>;
export async function withEtag(call: Promise<CallResult<unknown>>): Promise<Versioned<unknown>> {
  const result = await call;
  if (!result.response.ok || result.error !== undefined)
    throw new ApiError(result.response, result.error);
  return { data: result.data, etag: etagOf(result.response) };
}

/**
 * A conditional fetch, sent with `If-None-Match`: undefined when the resource has not changed
 * (304 Not Modified, no body), else its data and new ETag; another non-2xx is an ApiError.
 */
export function ifChanged<Result extends CallResult<unknown>>(
  call: Promise<Result>,
): Promise<Versioned<DataOf<Result>> | undefined>;
export async function ifChanged(
  call: Promise<CallResult<unknown>>,
): Promise<Versioned<unknown> | undefined> {
  const result = await call;
  if (result.response.status === 304) return undefined;
  return withEtag(Promise.resolve(result));
}
