// One HTTP request to a server process on loopback, with any Host header (fetch drops it).
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
}

export function httpCall(
  port: number,
  options: {
    method?: string;
    path: string;
    host: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
  },
): Promise<HttpAnswer> {
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
