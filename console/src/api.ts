// Calls to the tenant's API from the console, through the generated client
// (@omnichannel/management-client): the member's bearer token, the versioned Accept header the
// API asks for (contract §2), and every failure turned into an ApiFailure carrying the error
// body's FriendlyDescription (contract §4), which the pages show as is.
import {
  ACCEPT,
  ApiError,
  asErrorBody,
  createManagementClient,
  ok,
  type CallResult,
  type DataOf,
  type ErrorBody,
  type paths,
} from '@omnichannel/management-client';
import { currentSession, refreshSession, startSignIn } from './auth.ts';

export class ApiFailure extends Error {
  readonly status: number;
  readonly body: Partial<ErrorBody>;
  constructor(status: number, body: Partial<ErrorBody> = {}) {
    const details = body.Errors?.length
      ? ` (${body.Errors.map((e) => `${e.Field}: ${e.Message}`).join('; ')})`
      : '';
    super(`${body.FriendlyDescription ?? `The server answered ${status}.`}${details}`);
    this.status = status;
    this.body = body;
  }
}

async function accessToken(): Promise<string> {
  const session = currentSession();
  if (session && session.expiresAt - Date.now() > 10_000) return session.accessToken;
  const renewed = await refreshSession();
  if (renewed) return renewed.accessToken;
  return startSignIn();
}

/**
 * The member's token on every call. Expired or revoked (401): one new token from the refresh
 * token and the call once more, else the sign-in page.
 */
async function sendSignedIn(request: Request): Promise<Response> {
  const again = request.clone();
  request.headers.set('Authorization', `Bearer ${await accessToken()}`);
  const response = await fetch(request);
  if (response.status !== 401) return response;
  const renewed = await refreshSession();
  if (!renewed) return startSignIn();
  again.headers.set('Authorization', `Bearer ${renewed.accessToken}`);
  return fetch(again);
}

/** The typed client of this tenant's API (same origin as the console). */
export const client = createManagementClient({ baseUrl: location.origin, fetch: sendSignedIn });

/**
 * The data of a call's answer, or its failure as an ApiFailure:
 * `const item = await call(client.GET('/private/catalog/item/{id}', …))`.
 */
export function call<Result extends CallResult<unknown>>(
  request: Promise<Result>,
): Promise<DataOf<Result>>;
export async function call(request: Promise<CallResult<unknown>>): Promise<unknown> {
  try {
    return await ok(request);
  } catch (error) {
    throw failureOf(error);
  }
}

/** The client's ApiError as the console shows it (the error body's own words). */
export function failureOf(error: unknown): unknown {
  return error instanceof ApiError ? new ApiFailure(error.status, error.body) : error;
}

type Asset =
  paths['/management/storage/asset/raw']['post']['responses'][201]['content']['application/json'];

/** An answer of the raw upload, checked (XMLHttpRequest parses JSON into an untyped value). */
function isAsset(value: unknown): value is Asset {
  return (
    typeof value === 'object' &&
    value !== null &&
    'Id' in value &&
    typeof value.Id === 'number' &&
    'FileName' in value &&
    typeof value.FileName === 'string' &&
    'MimeType' in value &&
    typeof value.MimeType === 'string' &&
    'Size' in value &&
    typeof value.Size === 'number' &&
    'AssetUrl' in value &&
    typeof value.AssetUrl === 'string'
  );
}

/**
 * An asset uploaded from a file with progress (fetch cannot report upload progress;
 * XMLHttpRequest can), as POST /management/storage/asset/raw.
 */
export async function uploadAsset(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Asset> {
  const token = await accessToken();
  return new Promise<Asset>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/management/storage/asset/raw?fileName=${encodeURIComponent(file.name)}`);
    request.setRequestHeader('Accept', ACCEPT);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    // The key lets a retry of this upload answer the stored asset instead of storing it twice.
    request.setRequestHeader('Idempotency-Key', crypto.randomUUID());
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body: unknown = request.response;
      if (request.status >= 200 && request.status < 300 && isAsset(body)) resolve(body);
      else reject(new ApiFailure(request.status, asErrorBody(body)));
    };
    request.onerror = () => reject(new Error('The upload was interrupted.'));
    request.send(file);
  });
}
