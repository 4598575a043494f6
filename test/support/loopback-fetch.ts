// fetch for the tenants' hosts (`acme.localhost:PORT`), which do not resolve on every machine:
// sends to 127.0.0.1 on the URL's port with the URL's host in the Host header (Node's fetch
// replaces a Host header). It goes through httpCall, so every answer is checked against the
// OpenAPI document of the server that gave it (a mismatch throws from the call); bodies are
// read whole, which the tests' small bodies allow.
import { httpCall } from './http-call.ts';

export async function loopbackFetch(request: Request): Promise<Response> {
  const target = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const answer = await httpCall(Number(target.port), {
    method: request.method,
    path: `${target.pathname}${target.search}`,
    host: target.host,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
  const bodiless = [101, 204, 205, 304].includes(answer.status) || request.method === 'HEAD';
  return new Response(bodiless ? null : answer.body, {
    status: answer.status,
    headers: answerHeaders,
  });
}
