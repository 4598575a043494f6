// Requests that Node's HTTP parser refuses before Fastify sees them, and request bodies in a
// content coding: every answer is the contract's error body. Sent as raw bytes over a real TCP
// socket, since app.inject goes around the parser.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../support/test-api.ts';

const api = useTestApi({ LOG_LEVEL: 'trace' });
const acme = useTenant(api, 'acme');
let port: number;

beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole answer as received, for failure messages. */
  raw: string;
  /** Whether the server closed the connection after the answer. */
  closed: boolean;
}

/** Writes bytes on a fresh connection and reads the one answer that comes back. */
function rawRequest(bytes: Buffer | string, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw)}`));
      const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? NaN);
      const rest = raw.slice(end + 4);
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: Number.isNaN(length) ? rest : rest.slice(0, length),
        raw,
        closed,
      });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One answer with Content-Length read in full: enough when the server keeps the line open.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const match = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && match && text.length >= end + 4 + Number(match[1])) {
        // Wait a moment for the close that a refused request is followed by.
        setTimeout(() => finish(socket.readableEnded || socket.destroyed), 200);
      }
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => {
      if (chunks.length > 0) finish(true);
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.write(bytes);
  });
}

interface ContractError {
  IdentifierGuid: string;
  IdentifierTick: number;
  FriendlyDescription: string;
  Code: string;
}

/** The contract's error body of a raw answer, checked against its headers. */
function contractError(answer: RawAnswer): ContractError {
  let body: ContractError;
  try {
    body = JSON.parse(answer.body) as ContractError;
  } catch {
    throw new Error(`not JSON: ${JSON.stringify(answer.raw)}`);
  }
  expect(Object.keys(body), answer.raw).toEqual(
    expect.arrayContaining(['IdentifierGuid', 'IdentifierTick', 'FriendlyDescription', 'Code']),
  );
  expect(Object.keys(body), answer.raw).not.toContain('statusCode');
  expect(body.IdentifierGuid).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['x-request-id']).toBe(body.IdentifierGuid);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-api-version']).toBe('4.0');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(/"IdentifierTick":\d{18}/.test(answer.body), answer.body).toBe(true);
  return body;
}

const crlf = (...lines: string[]) => lines.join('\r\n') + '\r\n\r\n';

describe("requests Node's HTTP parser refuses", () => {
  it('answers a raw 0xFF byte in the path with 400 and the error body, and closes', async () => {
    const answer = await rawRequest(
      Buffer.concat([
        Buffer.from('GET /management/oauth/apps/'),
        Buffer.from([0xff]),
        Buffer.from(
          `x HTTP/1.1\r\nHost: ${acme.host}\r\nAuthorization: Bearer ${acme.token}\r\n\r\n`,
        ),
      ]),
    );
    expect(answer.status, answer.raw).toBe(400);
    expect(contractError(answer).Code).toBe('MalformedRequest');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('answers Content-Length with Transfer-Encoding: chunked with 400 and the error body', async () => {
    const answer = await rawRequest(
      crlf(
        'POST /management/oauth/apps HTTP/1.1',
        `Host: ${acme.host}`,
        `Authorization: Bearer ${acme.token}`,
        'Content-Type: application/json',
        'Content-Length: 4',
        'Transfer-Encoding: chunked',
      ) + '0\r\n\r\n',
    );
    expect(answer.status, answer.raw).toBe(400);
    const body = contractError(answer);
    expect(body.Code).toBe('MalformedRequest');
    expect(body.FriendlyDescription).toMatch(/Content-Length or Transfer-Encoding, not both/);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('answers a request with bare LF line ends with 400 and the error body', async () => {
    const answer = await rawRequest(`GET /health/live HTTP/1.1\nHost: ${acme.host}\n\n`);
    expect(answer.status, answer.raw).toBe(400);
    expect(contractError(answer).Code).toBe('MalformedRequest');
    expect(answer.headers.connection).toBe('close');
  });

  it('answers an HTTP/1.1 request without Host with 400 and the error body', async () => {
    const answer = await rawRequest(crlf('GET /health/live HTTP/1.1', 'Accept: */*'));
    expect(answer.status, answer.raw).toBe(400);
    expect(contractError(answer).Code).toBe('MissingHost');
  });

  it('answers an Expect it cannot meet with 417 and the error body', async () => {
    const answer = await rawRequest(
      crlf('GET /health/live HTTP/1.1', `Host: ${acme.host}`, 'Expect: something-else'),
    );
    expect(answer.status, answer.raw).toBe(417);
    expect(contractError(answer).Code).toBe('ExpectationFailed');
  });

  it('answers a 20 KB header with 431 HeadersTooLarge and the error body', async () => {
    const answer = await rawRequest(
      crlf('GET /health/live HTTP/1.1', `Host: ${acme.host}`, `X-Padding: ${'a'.repeat(20_000)}`),
    );
    expect(answer.status, answer.raw).toBe(431);
    expect(contractError(answer).Code).toBe('HeadersTooLarge');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('answers a request timeout with 408 RequestTimeout and the error body', async () => {
    // Node's own timers emit this error after headersTimeout (60 s); emitted here at once on a
    // real connection, as Node does.
    const serverSide = new Promise<Socket>((resolve) =>
      api.app.server.once('connection', (socket: Socket) => resolve(socket)),
    );
    const client = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
    client.write('GET /health/live HTTP/1.1\r\nHost: acme.localhost\r\n');
    const socket = await serverSide;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const timeout = Object.assign(new Error('Request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    api.app.server.emit('clientError', timeout, socket);
    await closed;
    const raw = Buffer.concat(received).toString('latin1');
    const end = raw.indexOf('\r\n\r\n');
    const headers = Object.fromEntries(
      raw
        .slice(0, end)
        .split('\r\n')
        .slice(1)
        .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const answer: RawAnswer = {
      status: Number(raw.split(' ')[1]),
      headers,
      body: raw.slice(end + 4),
      raw,
      closed: true,
    };
    expect(answer.status, raw).toBe(408);
    expect(contractError(answer).Code).toBe('RequestTimeout');
    expect(answer.headers.connection).toBe('close');
  });

  it('logs the refused request under its IdentifierGuid, without the bytes it carried', async () => {
    const answer = await rawRequest(
      crlf(
        'POST /console/callback?code=raw-secret-code HTTP/1.1',
        `Host: ${acme.host}`,
        'Authorization: Bearer raw-secret-token',
        'Content-Length: 4',
        'Transfer-Encoding: chunked',
      ) + '0\r\n\r\n',
    );
    const id = contractError(answer).IdentifierGuid;
    const lines = api.logs.lines.filter((l) => l.includes(id));
    expect(lines.length).toBe(1);
    const line = JSON.parse(lines[0]!) as { requestId: string; status: number; code: string };
    expect(line).toMatchObject({
      requestId: id,
      status: 400,
      code: 'HPE_INVALID_TRANSFER_ENCODING',
    });
    expect(api.logs.text()).not.toContain('raw-secret');
  });

  it('still serves a well-formed request on the same server afterwards', async () => {
    const answer = await rawRequest(
      crlf('GET /health/live HTTP/1.1', 'Host: localhost', 'Connection: close'),
    );
    expect(answer.status, answer.raw).toBe(200);
  });
});

describe('request bodies in a content coding (Content-Encoding)', () => {
  const appsCount = async () =>
    (await api.call({ url: '/management/oauth/apps', tenant: acme })).json<{ TotalCount: number }>()
      .TotalCount;

  it('refuses a gzip-encoded JSON body with 415 and Accept-Encoding: identity, creating nothing', async () => {
    const before = await appsCount();
    const body = gzipSync(JSON.stringify({ Name: 'Zipped', ApplicationTypeId: 3 }));
    const answer = await rawRequest(
      Buffer.concat([
        Buffer.from(
          crlf(
            'POST /management/oauth/apps HTTP/1.1',
            `Host: ${acme.host}`,
            `Authorization: Bearer ${acme.token}`,
            'Accept: application/vnd.xomni.api-v4-0',
            'Content-Type: application/json',
            'Content-Encoding: gzip',
            `Content-Length: ${body.length}`,
            'Connection: close',
          ),
        ),
        body,
      ]),
    );
    expect(answer.status, answer.raw).toBe(415);
    expect(contractError(answer).Code).toBe('UnsupportedContentEncoding');
    expect(answer.headers['accept-encoding']).toBe('identity');
    expect(await appsCount()).toBe(before);
  });

  it.each([
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
    ['identity, gzip', gzipSync],
  ] as const)('refuses Content-Encoding: %s with 415', async (coding, encode) => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      body: encode(JSON.stringify({ Name: 'Zipped', ApplicationTypeId: 3 })).toString('latin1'),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<{ Code: string }>().Code).toBe('UnsupportedContentEncoding');
    expect(response.headers['accept-encoding']).toBe('identity');
  });

  it('answers a compressed form at /oauth/token in its RFC 6749 body, issuing nothing', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        host: acme.host,
        'content-type': 'application/x-www-form-urlencoded',
        'content-encoding': 'gzip',
      },
      payload: gzipSync(
        `grant_type=client_credentials&client_id=${acme.appId}&client_secret=${acme.secret}`,
      ),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('invalid_request');
  });

  it('checks the token before the content coding (401, not 415)', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      token: null,
      headers: { 'content-encoding': 'gzip' },
      body: { Name: 'Zipped', ApplicationTypeId: 3 },
    });
    expect(response.statusCode).toBe(401);
  });

  it('takes a body whose Content-Encoding is identity', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { 'content-encoding': 'Identity' },
      body: { Name: 'Plain', ApplicationTypeId: 3 },
    });
    expect(response.statusCode).toBe(201);
  });

  it('ignores Content-Encoding on a request without a body', async () => {
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { 'content-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
  });
});
