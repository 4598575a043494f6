// One HTTP request to a server process on loopback, with any Host header (fetch drops it). Every
// answer is checked against the OpenAPI document of the server that gave it (openapi-answers.ts).
import { request } from 'node:http';
import {
  checkAnswer,
  validatorFor,
  type OpenApiDocument,
  type OpenApiValidator,
} from './openapi-answers.ts';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
}

export interface HttpCallOptions {
  method?: string;
  path: string;
  host: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

/** Throws when the answer does not match the server's OpenAPI document. */
export async function httpCall(port: number, options: HttpCallOptions): Promise<HttpAnswer> {
  // Asked for beside the call, so that a server that stops after answering was still asked.
  documentOf(port).catch(() => undefined);
  const answer = await uncheckedCall(port, options);
  // A server gone before it gave its document leaves nothing to check the answer against.
  const validator = await documentOf(port).catch(() => undefined);
  if (validator)
    checkAnswer(validator, {
      method: (options.method ?? 'GET').toUpperCase(),
      url: options.path,
      host: options.host,
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
    });
  return answer;
}

const documents = new Map<number, Promise<OpenApiValidator>>();

/** The validator of the document a server process serves at /openapi.json (once per port). */
function documentOf(port: number): Promise<OpenApiValidator> {
  let pending = documents.get(port);
  if (!pending) {
    pending = uncheckedCall(port, { path: '/openapi.json', host: 'localhost' }).then((answer) => {
      if (answer.status !== 200) throw new Error(`no OpenAPI document on port ${port}`);
      return validatorFor(JSON.parse(answer.text) as OpenApiDocument);
    });
    // Asked again next time: the server may not be up yet, or may be stopping.
    pending.catch(() => documents.delete(port));
    documents.set(port, pending);
  }
  return pending;
}

export function uncheckedCall(port: number, options: HttpCallOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: options.host, ...options.headers },
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString(),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A call of the API with a bearer token and, when there is a body, its content type. */
export function bearerCall(
  port: number,
  host: string,
  token: string,
  method: string,
  path: string,
  body?: string | Buffer,
  type = 'application/json',
): Promise<HttpAnswer> {
  return httpCall(port, {
    method,
    path,
    host,
    headers: {
      accept: 'application/vnd.xomni.api-v4-0',
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': type }),
    },
    ...(body === undefined ? {} : { body }),
  });
}

/** An access token of an app by the client-credentials grant (throws unless 200). */
export async function clientToken(
  port: number,
  host: string,
  appId: string,
  secret: string,
): Promise<string> {
  const answer = await httpCall(port, {
    method: 'POST',
    path: '/oauth/token',
    host,
    headers: {
      authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (answer.status !== 200)
    throw new Error(`token request failed: ${answer.status} ${answer.text}`);
  return (JSON.parse(answer.text) as { access_token: string }).access_token;
}
