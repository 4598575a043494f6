// Integer path parameters are decimal digits without leading zeros, within the schema's range
// (issue 52): `/private/catalog/item/0x10`, `+16`, `1e1` and `016` all reached item 16 on GET and
// PATCH. Walks every operation of the OpenAPI document with an integer path parameter and sends
// each spelling: 400 ValidationFailed naming the parameter, as for the query's integers.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expectations.ts';
import { errorBody, useTenant, useTestApi } from '../support/test-api.ts';
import { createItem } from '../modules/catalog/catalog-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
}
interface Operation {
  method: string;
  path: string;
  integers: Parameter[];
  others: Parameter[];
  mediaType: string | undefined;
}

let operations: Operation[] = [];
let privateToken: string;

beforeAll(async () => {
  const document = (await api.app.inject({ url: '/openapi.json' })).json<{
    paths: Record<
      string,
      Record<
        string,
        { parameters?: Parameter[]; requestBody?: { content: Record<string, unknown> } }
      >
    >;
  }>();
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const integers = inPath.filter((p) => p.schema?.type === 'integer');
      if (integers.length === 0) return [];
      const mediaType = Object.keys(operation.requestBody?.content ?? {})[0];
      return [
        { method, path, integers, others: inPath.filter((p) => !integers.includes(p)), mediaType },
      ];
    }),
  );
  privateToken = await api.issueToken(acme, acme.appId, acme.secret, 'private');
});

/** The operation's URL with `value` for `tested` and a valid value for every other parameter. */
function urlOf(operation: Operation, tested: string, value: string): string {
  // Every other integer (an id, a history's version) is 1: a parameter wrong beside the tested
  // one would be the one a 400 names.
  const integers = new Set(operation.integers.map((p) => p.name));
  return operation.path.replaceAll(/\{(\w+)\}/g, (_whole, name: string) =>
    name === tested ? value : integers.has(name) || name.toLowerCase().endsWith('id') ? '1' : 'x',
  );
}

function call(operation: Operation, url: string) {
  const token = operation.path.startsWith('/private/') ? privateToken : acme.token;
  const json = operation.mediaType === 'application/json';
  return api.call({
    method: operation.method.toUpperCase(),
    url,
    tenant: acme,
    token,
    ...(operation.mediaType
      ? {
          body: json ? '{}' : 'x',
          headers: { 'content-type': json ? 'application/json' : operation.mediaType },
        }
      : {}),
  });
}

/** What each integer path parameter is sent: the issue's spellings, and past its range. */
const spellings = (parameter: Parameter) => [
  '0x10',
  '+16',
  '1e1',
  '016',
  '00000000016',
  '%2016',
  '16.0',
  String((parameter.schema?.maximum ?? Number.MAX_SAFE_INTEGER) + 1),
  '99999999999999999999',
];

describe('integer path parameters', () => {
  it('are found on the operations of the document', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain(
      'patch /private/catalog/item/{id}',
    );
  });

  it('are 400 ValidationFailed, naming the parameter, when not decimal digits within range', async () => {
    const wrong: string[] = [];
    for (const operation of operations)
      for (const parameter of operation.integers)
        for (const value of spellings(parameter)) {
          const response = await call(operation, urlOf(operation, parameter.name, value));
          const fields =
            response.statusCode === 400
              ? (errorBody(response).Errors ?? []).map((e) => e.Field)
              : [];
          if (!fields.includes(parameter.name))
            wrong.push(
              `${operation.method} ${operation.path} ${parameter.name}=${value}: ${response.statusCode}`,
            );
        }
    expect(wrong).toEqual([]);
  });

  it('take decimal digits: an id is not refused for how it is written', async () => {
    const wrong: string[] = [];
    for (const operation of operations)
      for (const parameter of operation.integers) {
        const response = await call(operation, urlOf(operation, parameter.name, '1'));
        const fields =
          response.statusCode === 400 ? (errorBody(response).Errors ?? []).map((e) => e.Field) : [];
        if (fields.includes(parameter.name) || response.statusCode >= 500)
          wrong.push(`${operation.method} ${operation.path}: ${response.statusCode}`);
      }
    expect(wrong).toEqual([]);
  });

  it('take ids past 32 bits up to 2^53 - 1 where the range allows them: looked up, never a 500', async () => {
    // Ids are bigint: an id the database has no row for is a 404 (or a 400 of another
    // field), not a failed cast.
    const wrong: string[] = [];
    for (const operation of operations)
      for (const parameter of operation.integers)
        for (const value of [2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER]) {
          if (value > (parameter.schema?.maximum ?? Number.MAX_SAFE_INTEGER)) continue;
          const response = await call(operation, urlOf(operation, parameter.name, String(value)));
          const fields =
            response.statusCode === 400
              ? (errorBody(response).Errors ?? []).map((e) => e.Field)
              : [];
          if (fields.includes(parameter.name) || response.statusCode >= 500)
            wrong.push(
              `${operation.method} ${operation.path} ${parameter.name}=${value}: ${response.statusCode}`,
            );
        }
    expect(wrong).toEqual([]);
  });
});

describe('GET and PATCH /private/catalog/item/{id}', () => {
  it('reach an item by its id only, never by another spelling of it', async () => {
    const item = await createItem(api, acme, { Title: 'Trail jacket' });
    const url = (id: string) => `/private/catalog/item/${id}`;
    expect(
      (await api.call({ url: url(String(item.Id)), tenant: acme, token: privateToken })).statusCode,
    ).toBe(200);
    for (const id of [`0${item.Id}`, `+${item.Id}`, `0x${item.Id.toString(16)}`, `${item.Id}.0`]) {
      expectError(
        await api.call({ url: url(id), tenant: acme, token: privateToken }),
        400,
        'ValidationFailed',
        'id',
      );
      expectError(
        await api.call({
          method: 'PATCH',
          url: url(id),
          tenant: acme,
          token: privateToken,
          body: { Title: 'Changed' },
        }),
        400,
        'ValidationFailed',
        'id',
      );
    }
  });
});
