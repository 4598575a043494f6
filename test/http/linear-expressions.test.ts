// Every regular expression of src/ that sees request data finishes its worst-case input of a MiB
// in linear time (issue 52; the lint rules regexp/no-super-linear-* keep new literals so). The
// exported functions run in a worker that is stopped when one takes too long: a super-linear
// expression on a MiB blocks for minutes, and would block the test with it. Expressions inside
// routes and services are reached through the API, with the same inputs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fill,
  LINEAR_CASES,
  requestSchemaKeywords,
  SCHEMA_CASES,
  SCHEMA_KEYWORD_INPUTS,
} from '../support/linear-expression-cases.ts';
import type { CaseResult } from '../support/linear-expression-worker.ts';
import { basicAuth, useTenant, useTestApi } from '../support/test-api.ts';
import { expectStatus } from '../support/expectations.ts';

/**
 * Generous: on a MiB a linear expression takes milliseconds (0.6 s at most here, where a
 * replacement runs a million times), a quadratic one minutes.
 */
const BOUND_MS = 2000;
const WORKER = new URL('../support/linear-expression-worker.ts', import.meta.url);

let worker: Worker | undefined;

async function startWorker(): Promise<Worker> {
  const started = new Worker(WORKER);
  await new Promise<void>((resolve, reject) => {
    started.once('message', () => resolve());
    started.once('error', reject);
  });
  return started;
}

/** Runs a case in the worker; stops it (and answers undefined) past every input's bound. */
async function runCase(name: string, inputs: number): Promise<CaseResult | undefined> {
  worker ??= await startWorker();
  const running = worker;
  let answer: ((result: CaseResult | undefined) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<CaseResult | undefined>((resolve, reject) => {
    [answer, fail] = [resolve, reject];
    timer = setTimeout(() => resolve(undefined), inputs * BOUND_MS + 5000);
    running.on('message', resolve);
    running.on('error', reject);
    running.postMessage(name);
  });
  clearTimeout(timer);
  running.off('message', answer!).off('error', fail!);
  if (!result) {
    worker = undefined;
    await running.terminate();
  }
  return result;
}

afterAll(async () => {
  await worker?.terminate();
});

describe('regular expressions over request data (exported functions, 1 MiB inputs)', () => {
  it.each([...LINEAR_CASES, ...SCHEMA_CASES].map((c) => [c.name, c.inputs().length] as const))(
    '%s',
    async (name, inputs) => {
      const result = await runCase(name, inputs);
      expect(result, `${name} did not finish: super-linear`).toBeDefined();
      expect(result!.thrown.filter((kind) => /^(Type|Reference|Syntax)Error$/.test(kind))).toEqual(
        [],
      );
      for (const [index, ms] of result!.times.entries())
        expect(ms, `${name}, input ${index}`).toBeLessThan(BOUND_MS);
    },
  );

  it('covers every pattern and format of the request schemas in the OpenAPI document', () => {
    expect(Object.keys(SCHEMA_KEYWORD_INPUTS).sort()).toEqual(requestSchemaKeywords());
  });
});

describe('regular expressions over request data (through the API, 1 MiB inputs)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'omni-linear-'));
  const api = useTestApi({ DATA_DIR: dataDir });
  const acme = useTenant(api, 'acme');
  let assetUrl: string;

  beforeAll(async () => {
    const upload = await api.call({
      method: 'POST',
      url: '/management/storage/asset',
      tenant: acme,
      body: {
        FileName: 'notes.pdf',
        MimeType: 'application/pdf',
        FileBody: Buffer.from('%PDF-1.4').toString('base64'),
      },
    });
    expectStatus(upload, 201);
    assetUrl = new URL(upload.json<{ AssetUrl: string }>().AssetUrl).pathname;
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Calls the API and asserts the answer came within the bound (whatever its status). */
  async function timed(options: Parameters<typeof api.call>[0]): Promise<number> {
    const start = performance.now();
    const response = await api.call(options);
    const ms = performance.now() - start;
    expect(ms, `${options.url}: ${response.statusCode}`).toBeLessThan(BOUND_MS);
    return response.statusCode;
  }

  it('Authorization: Bearer (http/authentication)', async () => {
    for (const authorization of [fill('a', 'Bearer ', ' !'), fill(' ', 'Bearer', 'x')])
      expect(
        await timed({
          url: '/private/catalog/brands',
          tenant: acme,
          token: null,
          headers: { authorization },
        }),
      ).toBe(401);
  });

  it('query integers (http/validation)', async () => {
    expect(
      await timed({ url: `/private/catalog/brands?skip=${fill('1', '', 'x')}`, tenant: acme }),
    ).toBe(400);
  });

  it('Authorization: Basic and the client id (oauth/token-request, client-authentication)', async () => {
    const authorization = basicAuth(fill('a'), 'secret');
    const status = await timed({
      method: 'POST',
      url: '/oauth/token',
      tenant: acme,
      token: null,
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(status).toBe(401);
  });

  it('FileBody, FileName and MimeType of an upload (storage/asset-routes, asset-service)', async () => {
    for (const body of [
      { FileName: 'a.pdf', MimeType: 'application/pdf', FileBody: fill('QUFB', '', '!') },
      { FileName: 'a.pdf', MimeType: 'application/pdf', FileBody: fill('QUFB\n', '', '=') },
      { FileName: fill('a'), MimeType: 'application/pdf', FileBody: 'QUFB' },
      { FileName: 'a.pdf', MimeType: fill(' ; a=b', 'a/b', ';'), FileBody: 'QUFB' },
    ])
      expect(
        await timed({ method: 'POST', url: '/management/storage/asset', tenant: acme, body }),
      ).toBe(400);
  });

  it("If-None-Match and the key of an asset's content (storage/asset-content, asset-routes)", async () => {
    expect(
      await timed({ url: assetUrl, tenant: acme, headers: { 'if-none-match': fill(', W/"a"') } }),
    ).toBe(200);
    expect(
      await timed({ url: `${path.dirname(assetUrl)}/${fill('a', '', '!')}`, tenant: acme }),
    ).toBe(414);
  });

  it('the portal host (integration/portal-routes) and a console path (console/console-routes)', async () => {
    await timed({
      url: '/',
      token: null,
      headers: { host: fill('a', '', '.portal.integration.localhost:x') },
    });
    await timed({ url: `/console/${fill('a.', '', '!')}`, tenant: acme, token: null });
  });
});
