// fetch for the tenants' hosts (`acme.localhost:PORT`), which do not resolve on every machine:
// sends to 127.0.0.1 on the URL's port with the URL's host in the Host header (Node's fetch
// replaces a Host header), streaming the request's body and the answer's.
import http from 'node:http';
import { Readable } from 'node:stream';

export async function loopbackFetch(request: Request): Promise<Response> {
  const target = new URL(request.url);
  const headers: Record<string, string> = { host: target.host };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = request.body;
  return new Promise<Response>((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        signal: request.signal,
      },
      (incoming) => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
        const status = incoming.statusCode ?? 500;
        const bodiless = status === 204 || status === 304 || request.method === 'HEAD';
        if (bodiless) incoming.resume();
        resolve(
          new Response(bodiless ? null : Readable.toWeb(incoming), {
            status,
            statusText: incoming.statusMessage ?? '',
            headers: answerHeaders,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    if (body === null) outgoing.end();
    else Readable.from(body).on('error', reject).pipe(outgoing);
  });
}
