// JSON bodies nested deeper than any request schema are refused before they are parsed
// (issue 52): 400 JsonTooDeep, found by one pass over the text (src/http/json-depth.ts).
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.ts';
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
