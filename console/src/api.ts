// Calls to the tenant's API from the console: the member's bearer token, the versioned Accept
// header the API asks for (contract §2), and every failure turned into an ApiFailure carrying
// the error body's FriendlyDescription (contract §4), which the pages show as is.
import { currentSession, refreshSession, startSignIn } from './auth.ts';

export const ACCEPT = 'application/vnd.xomni.api-v4-0';

export interface ErrorBody {
  FriendlyDescription?: string;
  Code?: string;
  IdentifierGuid?: string;
  Errors?: { Field: string; Message: string }[];
}

export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    const details = body.Errors?.length
      ? ` (${body.Errors.map((e) => `${e.Field}: ${e.Message}`).join('; ')})`
      : '';
    super(`${body.FriendlyDescription ?? `The server answered ${status}.`}${details}`);
    this.status = status;
    this.body = body;
  }
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Raw body sent as is (uploads), with its own Content-Type. */
  raw?: { data: Blob; type: string };
}

export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function accessToken(): Promise<string> {
  const session = currentSession();
  if (session && session.expiresAt - Date.now() > 10_000) return session.accessToken;
  const renewed = await refreshSession();
  if (renewed) return renewed.accessToken;
  return startSignIn();
}

async function errorOf(response: Response): Promise<ApiFailure> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  return new ApiFailure(response.status, body);
}

export async function api<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const send = async (token: string) => {
    const headers: Record<string, string> = { Accept: ACCEPT, Authorization: `Bearer ${token}` };
    let body: BodyInit | undefined;
    if (options.raw) {
      headers['Content-Type'] = options.raw.type;
      body = options.raw.data;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    return fetch(withQuery(path, options.query), { method, headers, body });
  };
  let response = await send(await accessToken());
  if (response.status === 401) {
    // Expired or revoked: one new token from the refresh token, else sign in again.
    const renewed = await refreshSession();
    if (!renewed) return startSignIn();
    response = await send(renewed.accessToken);
  }
  if (!response.ok) throw await errorOf(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file upload with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export async function upload<T>(
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<T> {
  const token = await accessToken();
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('Accept', ACCEPT);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = {};
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(new ApiFailure(request.status, body as ErrorBody));
    };
    request.onerror = () => reject(new Error('The upload was interrupted.'));
    request.send(file);
  });
}

export interface Page<T> {
  Results: T[];
  TotalCount: number;
}
