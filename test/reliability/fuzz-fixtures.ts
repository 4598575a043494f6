// Arbitraries (fast-check) of hostile requests for one OpenAPI operation: its path parameters,
// query, body and headers, each either plausible or broken in one of the ways clients break them.
import fc from 'fast-check';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
};

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

export interface FuzzParts {
  pathValues: string[];
  query: string;
  body: BodyChoice;
  headers: Record<string, string | string[]>;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string | Buffer;
}

export interface FuzzOperation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: { name: string; schema: JsonSchema }[];
  bodySchema: JsonSchema | undefined;
  mediaType: string | undefined;
  request(parts: FuzzParts): FuzzRequest;
}

/** A body as text, and whether to cut it short (a truncated upload). */
export interface BodyChoice {
  text: string | undefined;
  truncate: boolean;
}

const ACCEPT = 'application/vnd.xomni.api-v4-0';

export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const content = operation.requestBody?.content ?? {};
      const mediaType = Object.keys(content)[0];
      const bodySchema = mediaType ? content[mediaType]?.schema : undefined;
      const upper = method.toUpperCase();
      operations.push({
        method: upper,
        path,
        pathParams,
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        bodySchema,
        mediaType,
        request(parts) {
          let index = 0;
          const url =
            path.replace(/\{[^}]+\}/g, () => parts.pathValues[index++] ?? '1') +
            (parts.query ? `?${parts.query}` : '');
          const headers: Record<string, string | string[]> = { accept: ACCEPT, ...parts.headers };
          let payload: string | undefined = parts.body.text;
          if (payload !== undefined && parts.body.truncate)
            payload = payload.slice(0, Math.floor(payload.length / 2));
          if (payload !== undefined && headers['content-type'] === undefined)
            headers['content-type'] = mediaType ?? 'application/json';
          return { method: upper, url, headers, ...(payload === undefined ? {} : { payload }) };
        },
      });
    }
  }
  return operations;
}

/** Strings that break naive code: control and format characters, lone surrogates, huge text. */
const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202eevil\u202c',
    '\u200f\u200e',
    '\ufeff',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 💩',
    "'; drop table items; --",
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '{"$ne": null}',
    'x'.repeat(100_000),
    '9'.repeat(400),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const nastyNumber = fc.constantFrom(
  -1,
  0,
  1.5,
  -2147483649,
  2147483648,
  2 ** 53 + 2,
  1e308,
  -1e308,
  Number.MIN_VALUE,
);

function deeplyNested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { '': null }),
  fc.constant(deeplyNested(200)),
  fc.constant(Array.from({ length: 50_000 }, (_, i) => i)),
  fc.constant(Array.from({ length: 2_000 }, () => ({ x: 'y'.repeat(50) }))),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value of the schema's kind, which the server may well accept. */
function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return plausible(variant, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return 'fuzz';
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, depth + 1)];
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {}))
        object[key] = plausible(child, depth + 1);
      return object;
    }
    default:
      return null;
  }
}

/** The schema's object properties (of the object itself, or of an array's items). */
function propertyNames(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  if (schema.properties) return Object.keys(schema.properties);
  if (schema.items?.properties) return Object.keys(schema.items.properties);
  return [];
}

/** One mutation of a plausible body: a field wrong, missing or extra; or junk instead of it. */
export function bodyArbitrary(operation: FuzzOperation): fc.Arbitrary<BodyChoice> {
  const schema = operation.bodySchema;
  const base = plausible(schema);
  const names = propertyNames(schema);
  const mutate = (field: string | undefined, value: unknown, remove: boolean) => {
    const copy: unknown = structuredClone(base);
    const target = (Array.isArray(copy) ? copy[0] : copy) as Record<string, unknown> | null;
    if (target && typeof target === 'object' && field !== undefined) {
      if (remove) delete target[field];
      else target[field] = value;
    }
    return copy;
  };
  const mutated = fc
    .record({
      field: names.length ? fc.constantFrom(...names, 'UnknownField') : fc.constant(undefined),
      value: nastyValue,
      remove: fc.boolean(),
    })
    .map(({ field, value, remove }) => JSON.stringify(mutate(field, value, remove)));
  const isForm = operation.mediaType === 'application/x-www-form-urlencoded';
  const text: fc.Arbitrary<string | undefined> = fc.oneof(
    { weight: 4, arbitrary: isForm ? formBody : mutated },
    { weight: 1, arbitrary: nastyValue.map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"a":',
        '[1,2',
        'null',
        'not json',
        '\u0000',
        // Nesting far deeper than any schema, as text (building it as a value would overflow).
        '['.repeat(100_000) + ']'.repeat(100_000),
        '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({ text, truncate: fc.boolean().map((b) => b && Math.random() < 0.3) });
}

const formBody = fc
  .record({
    grant_type: fc.oneof(fc.constantFrom('client_credentials', 'password', ''), nastyString),
    scope: fc.oneof(fc.constantFrom('public', 'management', 'x y z'), nastyString),
    physical_device_id: fc.oneof(fc.constantFrom('1', '-1', 'abc'), nastyString),
  })
  .map((fields) => new URLSearchParams(fields).toString());

/** Percent-encodes the UTF-8 bytes of a text (lone surrogates included, as U+FFFD). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

// Encoded already: bytes that are not UTF-8 at all, and a bare percent sign.
const RAW_ENCODED = ['%ED%A0%80', '%FF%FE', '%C0%AF', '%', '%zz'];

export function pathValueArbitrary(ids: string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom(...ids, '1', '0', '-1', 'abc', '1.5', '9'.repeat(30), 'null', '[]', 'true'),
      nastyString.map((s) => s.slice(0, 2_000)),
    )
    .map((value) => percentEncoded(value) || '%20')
    .chain((encoded) => fc.oneof(fc.constant(encoded), fc.constantFrom(...RAW_ENCODED)));
}

export function queryArbitrary(operation: FuzzOperation): fc.Arbitrary<string> {
  const names = [...operation.queryParams.map((p) => p.name), 'unknownParameter'];
  const value = fc.oneof(
    fc.constantFrom('-1', '0', '1', 'abc', '1e309', '', 'true', '9'.repeat(25), 'x'.repeat(5_000)),
    nastyString.map((s) => s.slice(0, 2_000)),
  );
  return fc
    .array(fc.record({ name: fc.constantFrom(...names), value }), { maxLength: 4 })
    .map((pairs) =>
      // Repeated names are kept: a duplicated query parameter is one of the cases.
      pairs.map(({ name, value: v }) => `${name}=${percentEncoded(v)}`).join('&'),
    );
}

export function headerArbitrary(
  operation: FuzzOperation,
): fc.Arbitrary<Record<string, string | string[]>> {
  // Each header is broken in a few requests only, so that most reach the operation's own checks.
  const rarely = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
  const contentType = rarely(
    fc.constantFrom(
      operation.mediaType ?? 'application/json',
      'application/json',
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/octet-stream',
      '',
    ),
  );
  return fc
    .record({
      contentType,
      accept: rarely(
        fc.constantFrom(
          'text/html',
          'application/vnd.xomni.api-v9-9',
          '*/*',
          ['application/json', 'text/html'],
          '\u0000',
        ),
      ),
      ifMatch: rarely(fc.constantFrom('*', '"x"', 'W/"1"', 'garbage', '"1", "2"')),
      authorization: rarely(
        fc.constantFrom('Bearer', 'Bearer x.y.z', 'Basic !!!', 'Bearer ' + 'a'.repeat(8_000)),
      ),
      // Good keys (fixed ones recur across requests, so some are replays or reuses) and bad ones.
      idempotencyKey: rarely(
        fc.oneof(
          fc.constantFrom(
            'fuzz-key',
            '"fuzz-key"',
            '',
            '""',
            '"unterminated',
            'a b',
            'k'.repeat(300),
            'été',
            ['a', 'b'],
            'a, b',
          ),
          fc.uuid(),
        ),
      ),
    })
    .map(({ contentType: type, accept, ifMatch, authorization, idempotencyKey }) => {
      const headers: Record<string, string | string[]> = {};
      if (type !== undefined) headers['content-type'] = type;
      if (accept !== undefined) headers.accept = accept;
      if (ifMatch !== undefined) headers['if-match'] = ifMatch;
      if (authorization !== undefined) headers.authorization = authorization;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      return headers;
    });
}
