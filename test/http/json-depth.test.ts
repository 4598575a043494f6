// JSON bodies nested deeper than any request schema are refused while they are read (issue 52):
// 400 JsonTooDeep at the first level too deep, found by a gauge fed each chunk as it arrives
// (src/http/json-depth.ts), before the rest of the body is read or parsed.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { JsonDepthGauge, MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.ts';
import { expectError, expectFieldError } from '../support/expectations.ts';
import { useTenant, useTestApi } from '../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const MIB = 1 << 20;
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('nestsDeeperThan', () => {
  it.each([
    ['[]', 1, false],
    ['[[]]', 1, true],
    ['{"a":[{"b":1}]}', 3, false],
    ['{"a":[{"b":1}]}', 2, true],
    ['[1,[2],[3],[[4]]]', 3, false],
    // Brackets inside strings do not count, escaped quotes do not end a string.
    ['["[[[[", "{{{{"]', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\", [[]]]', 2, true],
    ['["\\\\\\"[["]', 1, false],
    // Not JSON: JSON.parse says so after.
    ['[[[', 2, true],
    [']]]', 0, false],
    ['"[[[', 0, false],
  ])('%s deeper than %i: %s', (text, max, deeper) => {
    expect(nestsDeeperThan(text, max)).toBe(deeper);
  });

  it('answers the same when the text comes in chunks split anywhere, escapes included', () => {
    const texts = [
      '["\\\\", [[]]]',
      '["\\"[[[[", [1]]',
      '{"a":"é[\\u005b","b":[[{}]]}',
      '[["\\\\\\"[["]]',
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text);
      for (let max = 0; max <= 4; max++) {
        const whole = nestsDeeperThan(text, max);
        for (let cut = 0; cut <= bytes.length; cut++) {
          const gauge = new JsonDepthGauge(max);
          const split = gauge.tooDeep(bytes.subarray(0, cut)) || gauge.tooDeep(bytes.subarray(cut));
          expect(split, `${text} cut at ${cut}, max ${max}`).toBe(whole);
        }
      }
    }
  });
});

describe('POST /private/catalog/item (a JSON route)', () => {
  const post = (payload: string) =>
    api.call({ method: 'POST', url: '/private/catalog/item', tenant: acme, body: payload });

  it(`answers 400 JsonTooDeep past ${MAX_JSON_DEPTH} levels of arrays or objects`, async () => {
    for (const body of [
      arrays(MAX_JSON_DEPTH + 1),
      objects(MAX_JSON_DEPTH + 1),
      arrays((MIB - 16) / 2),
      `{"Title":"x","Tags":[${arrays(MAX_JSON_DEPTH)}]}`,
    ])
      expectError(await post(body), 400, 'JsonTooDeep');
  });

  it(`parses ${MAX_JSON_DEPTH} levels, and brackets in strings, as before`, async () => {
    expectError(await post(arrays(MAX_JSON_DEPTH)), 400, 'ValidationFailed');
    expectFieldError(await post(`{"Title":"${'['.repeat(1000)}","Tags":1}`), 'Tags');
    expect((await post(`{"Title":"${'[{'.repeat(50)}"}`)).statusCode).toBe(201);
  });
});

describe('a JSON body too deep, over a real connection', () => {
  let port: number;
  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (api.app.server.address() as AddressInfo).port;
  });

  /** A chunked POST of JSON to the item route, its body written by the caller; and its answer. */
  function postChunked(): {
    sending: ClientRequest;
    answered: Promise<{ response: IncomingMessage; text: string }>;
  } {
    const sending = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/private/catalog/item',
      headers: {
        Host: acme.host,
        Authorization: `Bearer ${acme.token}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      sending.once('response', resolve);
      sending.once('error', reject);
    }).then(async (response) => {
      let text = '';
      for await (const chunk of response) text += String(chunk);
      return { response, text };
    });
    return { sending, answered };
  }

  it('is answered 400 JsonTooDeep at its first level too deep, while the client still sends', async () => {
    const { sending, answered } = postChunked();
    // The body is not ended: the answer comes from what has arrived.
    sending.write('['.repeat(MAX_JSON_DEPTH + 1));
    const { response, text } = await answered;
    expect(response.statusCode, text).toBe(400);
    expect(response.headers.connection).toBe('close');
    expect((JSON.parse(text) as { Code: string }).Code).toBe('JsonTooDeep');
    // What the client sends after the answer is read and dropped (lingering close), no error.
    const more = await new Promise<Error | undefined>((resolve) => {
      sending.once('error', resolve);
      sending.once('close', () => resolve(undefined));
      sending.end('['.repeat(256 * 1024));
    });
    expect(more).toBeUndefined();
  });

  it('reads a body of many chunks within its depth as one', async () => {
    const title = 'chunked é [{"\\ ' + '['.repeat(MAX_JSON_DEPTH + 1);
    const body = Buffer.from(JSON.stringify({ Title: title }));
    const { sending, answered } = postChunked();
    // One byte a chunk: a character of two bytes and every escape split between chunks.
    for (const byte of body) sending.write(Buffer.from([byte]));
    sending.end();
    const { response, text } = await answered;
    const answer = { status: response.statusCode, text };
    expect(answer.status, answer.text).toBe(201);
    expect((JSON.parse(answer.text) as { Title: string }).Title).toBe(title);
  });
});

describe('MAX_JSON_DEPTH', () => {
  type Schema = Record<string, unknown>;
  /** How deep a body a schema describes can nest (a schema met again on its own path: none). */
  function depthOf(schema: unknown, schemas: Record<string, Schema>, seen: string[]): number {
    if (typeof schema !== 'object' || schema === null) return 0;
    const node = schema as Schema;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop()!;
      if (seen.includes(name)) throw new Error(`${name} refers to itself: no bound on depth`);
      return depthOf(schemas[name], schemas, [...seen, name]);
    }
    const members = ['anyOf', 'oneOf', 'allOf'].flatMap((k) => (node[k] as unknown[]) ?? []);
    const children = [
      ...Object.values((node.properties as Record<string, unknown>) ?? {}),
      ...(typeof node.additionalProperties === 'object' ? [node.additionalProperties] : []),
      ...(node.items ? [node.items] : []),
    ];
    const own = node.properties || node.items || node.type === 'object' || node.type === 'array';
    return Math.max(
      0,
      ...members.map((m) => depthOf(m, schemas, seen)),
      ...children.map((c) => (own ? 1 : 0) + depthOf(c, schemas, seen)),
      own ? 1 : 0,
    );
  }

  it('is above the depth of every request body schema in the OpenAPI document', async () => {
    const document = (await api.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, Schema> } }>>;
      components: { schemas: Record<string, Schema> };
    }>();
    let deepest = 0;
    for (const operations of Object.values(document.paths))
      for (const operation of Object.values(operations))
        for (const media of Object.values(operation.requestBody?.content ?? {}))
          deepest = Math.max(deepest, depthOf(media.schema, document.components.schemas, []));
    expect(deepest).toBeGreaterThanOrEqual(3);
    expect(deepest).toBeLessThan(MAX_JSON_DEPTH / 4);
  });
});
