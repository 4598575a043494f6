// Stoplight's Prism as a validating proxy in front of a server on loopback (`prism proxy
// <document> http://127.0.0.1:<port> --errors`): it checks every request and answer against the
// OpenAPI document and, with --errors, answers a violation itself (422 for a request, 500 for an
// answer, a body of type https://stoplight.io/prism/errors#…) or names it in `sl-violations`.
// Prism's known defects, worked around here (docs/api.md, "Prism"):
// - it takes `format: int64` to mean at most 2^53 − 1 (int64 goes to 2^63 − 1) and so refuses
//   every error body's IdentifierTick (.NET ticks, about 6.4e17): Prism is given a copy of the
//   document without that one format;
// - it corrupts binary request bodies (it reads them as text) and answers 500 to HEAD: such
//   requests go to the server directly (prismFetch), the others all through Prism;
// - it corrupts binary answers too: a GET whose answer is not text goes through Prism (which
//   checks it) and the client is given the bytes of the same GET sent directly;
// - it follows redirects instead of passing them on (and fails on the tenant host of a 302's
//   Location, which it cannot resolve): the sign-in form (POST /oauth/authorize, answered with
//   a 302 to the console) goes to the server directly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './listening-api.ts';
import { loopbackFetch } from './loopback-fetch.ts';
import { uncheckedCall } from './http-call.ts';
import { PROJECT_ROOT } from './processes.ts';

export interface Violation {
  request: string;
  status: number;
  violations: unknown;
}

export interface Prism {
  port: number;
  /** How many answers came through Prism (record was called for). */
  checked: number;
  /** Violations Prism reported, in its header or its own error answers. */
  violations: Violation[];
  /** Records the violations of an answer that came through Prism. */
  record(request: string, status: number, headers: Record<string, unknown>, body: string): void;
  stop(): Promise<void>;
}

/** The committed document as Prism is given it (without the int64 format it misreads). */
async function documentForPrism(dir: string): Promise<string> {
  const document = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, { properties?: Record<string, { format?: string }> }> };
  };
  for (const schema of Object.values(document.components.schemas)) {
    const tick = schema.properties?.IdentifierTick;
    if (tick) delete tick.format;
  }
  const file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  return file;
}

export async function startPrism(upstreamPort: number): Promise<Prism> {
  const dir = await mkdtemp(path.join(tmpdir(), 'omni-prism-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(PROJECT_ROOT, 'node_modules/.bin/prism'),
    [
      'proxy',
      await documentForPrism(dir),
      `http://127.0.0.1:${upstreamPort}`,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${output}`));
    });
  });
  const violations: Violation[] = [];
  const prism: Prism = {
    port,
    checked: 0,
    violations,
    record(request, status, headers, body) {
      prism.checked += 1;
      const header = headers['sl-violations'];
      if (typeof header === 'string')
        violations.push({ request, status, violations: JSON.parse(header) as unknown });
      else if (body.includes('https://stoplight.io/prism/errors#'))
        violations.push({ request, status, violations: body });
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  return prism;
}

/** A request body Prism would corrupt: bytes that are not UTF-8 text. */
function isBinary(body: Buffer): boolean {
  return !body.equals(Buffer.from(body.toString('utf8'), 'utf8'));
}

/**
 * fetch for the generated client through Prism: the request goes to Prism's port with the
 * tenant's Host header (the server behind it has DEFAULT_TENANT set to that tenant, should Prism
 * not pass the header on); HEAD and binary bodies go to the server directly (Prism's defects).
 */
export function prismFetch(prism: Prism, serverPort: number) {
  return async (request: Request): Promise<Response> => {
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const target = new URL(request.url);
    const sendDirect = () => {
      const direct = new URL(target);
      direct.port = String(serverPort);
      return loopbackFetch(
        new Request(direct, {
          method: request.method,
          headers: request.headers,
          ...(body === undefined ? {} : { body }),
        }),
      );
    };
    if (
      request.method === 'HEAD' ||
      (body !== undefined && isBinary(body)) ||
      (request.method === 'POST' && target.pathname === '/oauth/authorize')
    )
      return sendDirect();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await uncheckedCall(prism.port, {
      method: request.method,
      path: `${target.pathname}${target.search}`,
      host: target.host,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    prism.record(
      `${request.method} ${target.pathname}`,
      answer.status,
      answer.headers,
      answer.text,
    );
    const type = String(answer.headers['content-type'] ?? '');
    if (
      request.method === 'GET' &&
      type !== '' &&
      !/^(text\/|application\/(json|problem|x-ndjson|vnd\.))/.test(type)
    )
      return sendDirect();
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
    const bodiless = [101, 204, 205, 304].includes(answer.status);
    return new Response(bodiless ? null : answer.body, {
      status: answer.status,
      headers: answerHeaders,
    });
  };
}
