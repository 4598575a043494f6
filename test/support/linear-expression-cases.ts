// The regular expressions of src/ that see request data, each fed its worst-case inputs of a MiB
// through the exported function that runs it (issue 52). Run in a worker
// (linear-expression-worker.ts) so that a super-linear one, which would block for minutes, is
// stopped and named. Left out, as they never see request data: config and environment readers,
// the CLI, SQL text and database messages, llhttp's constant reasons, HMAC-signed continuation
// tokens, and the OpenAPI document's own paths.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import Fastify, { type FastifyRequest, type RouteOptions } from 'fastify';
import { severalHostsOf } from '../../src/db/failover/primary-hosts.ts';
import { fieldOf } from '../../src/domain/validation-issues.ts';
import { isWebLink } from '../../src/domain/web-link.ts';
import { matchesEtag } from '../../src/http/conditional-get.ts';
import { checkIfMatch } from '../../src/http/etag.ts';
import { parseIdempotencyKey } from '../../src/http/idempotency-key.ts';
import { registerJsonBodies } from '../../src/http/json-body.ts';
import { checkDocumentedRoute } from '../../src/http/openapi-operations.ts';
import { registerValidation } from '../../src/http/validation.ts';
import { negotiateVersion } from '../../src/http/versioning.ts';
import { prepareBatch } from '../../src/modules/analytics/analytics-records.ts';
import { neutraliseFormula, restoreFormula } from '../../src/modules/catalog/csv-formulas.ts';
import { readRecords } from '../../src/modules/catalog/imports/import-records.ts';
import { queryWords } from '../../src/modules/catalog/search/search-service.ts';
import { parseLocation } from '../../src/modules/company/geo.ts';
import { bareHost } from '../../src/modules/events/address-guard.ts';
import { positionOf } from '../../src/modules/events/event-feed.ts';
import { SERVICE_NAME_PATTERN } from '../../src/modules/integration/endpoint-schemas.ts';
import { isCodeVerifier, isS256Challenge } from '../../src/modules/members/console-client.ts';
import { USERNAME_PATTERN } from '../../src/modules/members/member-schemas.ts';
import { passwordProblem } from '../../src/modules/members/passwords.ts';
import { escapeHtml } from '../../src/modules/members/sign-in-page.ts';
import { clientCredentials } from '../../src/modules/oauth/token-request.ts';
import { SHA256_HEX } from '../../src/modules/storage/blob-store.ts';
import { parseMimeType } from '../../src/modules/storage/content-check.ts';
import { storageSettings } from '../../src/modules/storage/storage-settings.ts';

export const MIB = 1 << 20;

/** `prefix`, then `unit` repeated up to a MiB in all, then `suffix` (what makes a match fail). */
export function fill(unit: string, prefix = '', suffix = ''): string {
  const count = Math.ceil((MIB - prefix.length - suffix.length) / unit.length);
  return prefix + unit.repeat(Math.max(count, 1)) + suffix;
}

export interface LinearCase {
  /** Where the expression is, and what runs it. */
  name: string;
  /** The worst-case inputs: runs of what the expression's quantifiers take, then a refusal. */
  inputs(): string[];
  run(input: string): unknown;
}

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

/** Runs a request schema's string keyword through the server's validator and JSON parser. */
async function validated(keyword: Record<string, unknown>, value: string): Promise<void> {
  const app = Fastify({ bodyLimit: 4 * MIB });
  registerValidation(app);
  registerJsonBodies(app);
  app.post(
    '/',
    {
      schema: {
        body: { type: 'object', properties: { Value: { type: 'string', ...keyword } } },
      },
    },
    async () => ({}),
  );
  await app.inject({ method: 'POST', url: '/', payload: { Value: value } });
  await app.close();
}

/**
 * The worst inputs of each string keyword (pattern or format) that a request schema of the
 * OpenAPI document holds. A keyword missing here fails the test: add its inputs.
 */
export const SCHEMA_KEYWORD_INPUTS: Record<string, () => string[]> = {
  'pattern:\\S': () => [fill(' '), fill('\t')],
  'pattern:^[^/]+$': () => [fill('a', '', '/'), fill('/')],
  'pattern:^\\d{4}-\\d{2}-\\d{2}$': () => [fill('1', '', '-'), fill('2020-01-01')],
  'pattern:^[A-Za-z0-9][A-Za-z0-9._@+-]{2,63}$': () => [fill('a', '', '!'), fill('a.@+-')],
  'pattern:^evt_[0-7][0-9a-f]{15}[0-7][0-9a-f]{15}$': () => [fill('0', 'evt_'), fill('evt_0')],
  'pattern:^[a-z][a-z_]{0,63}$': () => [fill('_', 'a', '!'), fill('a_')],
  'pattern:^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$': () => [
    fill(' ', '1', 'x'),
    fill(' , 1', '1', ' x'),
    fill('1', '', ' ,'),
    fill(' ', '', 'x'),
  ],
  'pattern:^[Hh][Tt][Tt][Pp][Ss]?://[^\\s\\x00-\\x1f\\x7f/?#]+([/?#][^\\s\\x00-\\x1f\\x7f]*)?$':
    () => [
      fill('a', 'http://', ' '),
      fill('/', 'http://a', ' '),
      fill('http://', 'http://a/', ' '),
    ],
  'format:date-time': () => [
    fill(' '),
    fill('t'),
    fill('1', '2020-01-01T', 'x'),
    fill('2020-01-01T00:00:00Z '),
  ],
  'format:email': () => [fill('a.', '', '@'), fill('a.', 'a@', '!'), fill('a-', 'a@a', '.')],
  'format:uuid': () => [fill('0', '', 'x'), fill('0-')],
};

export const LINEAR_CASES: LinearCase[] = [
  // The three expressions the lint rule flagged (they read configuration, not requests): quadratic
  // before issue 52, minutes on these inputs.
  {
    name: 'db/primary-hosts: severalHostsOf',
    inputs: () => [fill('a', 'postgres://', '/\n'), fill(',a', 'postgres://a', '/\n')],
    run: (input) => severalHostsOf(input),
  },
  {
    name: 'http/openapi-operations: checkDocumentedRoute (operationId)',
    inputs: () => [fill('a', '', '!')],
    run: (input) =>
      checkDocumentedRoute(
        { method: 'GET', url: '/', schema: { operationId: input } } as RouteOptions,
        new Set(),
      ),
  },
  {
    name: 'storage/storage-settings: storageSettings (S3_URL bucket)',
    inputs: () => [fill('/', 'http://k:s@h/b', 'b'), fill('/', 'http://h/')],
    run: (input) => storageSettings({ S3_URL: input }),
  },
  // Request data.
  {
    name: 'domain/validation-issues: fieldOf (instancePath from body keys)',
    // A key of the body is escaped in the path (`/` as `~1`): a long path is a long key.
    inputs: () => [fill('a', '/'), fill('~1', '/')],
    run: (input) => fieldOf({ instancePath: input, keyword: 'type', params: {} }, undefined),
  },
  {
    name: 'domain/web-link: isWebLink',
    inputs: () => [fill('a', 'http://', ' '), fill('/', 'https://a', '\n'), fill('a', 'HtTp://')],
    run: (input) => isWebLink(input),
  },
  {
    name: 'http/conditional-get: matchesEtag (If-None-Match)',
    inputs: () => [fill('W/'), fill(', W/"a"'), fill(' ', '', 'W/"a"')],
    run: (input) => matchesEtag(input, '"b"'),
  },
  {
    name: 'http/etag: checkIfMatch (If-Match)',
    inputs: () => [fill('W/'), fill(', W/"a"')],
    run: (input) => checkIfMatch(request({ 'if-match': input }), 1),
  },
  {
    name: 'http/idempotency-key: parseIdempotencyKey',
    inputs: () => [
      fill('a', '"', '\u0001"'),
      fill('\\"', '"', '\\'),
      fill('a', '', '"'),
      fill('a'),
    ],
    run: (input) => parseIdempotencyKey(input),
  },
  {
    name: 'http/versioning: negotiateVersion (Accept)',
    inputs: () => [
      fill('a.', 'application/vnd.a', 'api-v1_1x'),
      fill('1', 'application/vnd.a.api-v', '_x'),
      fill('.api-v1_1', 'application/vnd.a', 'x'),
      fill('a', 'a/', '/'),
      fill('0', 'application/json;q=0.', 'x'),
      fill(' ', 'application/json;q', '=1x'),
    ],
    run: (input) => negotiateVersion(input),
  },
  {
    name: 'analytics/analytics-records: prepareBatch (GUID, CreatedDate)',
    inputs: () => [fill('0', '', 'x'), fill('1', '2020-01-01T00:00:00.', 'x'), fill('0-')],
    run: (input) =>
      prepareBatch(
        [{ Counter: 'WishlistByCreatedDate', UniqueKey: input, CreatedDate: input }],
        Date.now(),
        undefined,
      ),
  },
  {
    name: 'catalog/csv-formulas: neutraliseFormula, restoreFormula',
    inputs: () => [fill("'", '', 'a'), fill("'")],
    run: (input) => restoreFormula(neutraliseFormula(input)),
  },
  {
    name: 'catalog/imports/import-records: readRecords (CSV number cells)',
    inputs: () => [
      fill(' ', '1', 'x'),
      fill('1', '-', '.'),
      fill('1', '1.', ' x'),
      fill(' ', '', '-'),
    ],
    run: async (input) => {
      const csv = `Rating\n"${input}"\n`;
      for await (const record of readRecords('csv', Readable.from([csv]), 0, 4 * MIB)) void record;
    },
  },
  {
    name: 'catalog/search/search-service: queryWords',
    inputs: () => [fill('a'), fill('a '), fill('\u0301'), fill('!')],
    run: (input) => queryWords(input),
  },
  {
    name: 'company/geo: parseLocation (nearest-store path segment)',
    inputs: () => [
      fill(' ', '', '1;1x'),
      fill('1', '', ';'),
      fill('1', '1.', ';x'),
      fill(' ', '1;1', 'x'),
      fill(' ', '1', ';x'),
      fill('.1', '', ';1'),
    ],
    run: (input) => parseLocation(input),
  },
  {
    name: 'events/address-guard: bareHost (webhook URL)',
    inputs: () => [fill('a', 'http://', '/'), 'http://[::1]/' + fill('a')],
    run: (input) => bareHost(new URL(input)),
  },
  {
    name: 'events/event-feed: positionOf (event id)',
    inputs: () => [fill('0', 'evt_'), fill('evt_0')],
    run: (input) => positionOf(input),
  },
  {
    name: 'integration/endpoint-schemas: SERVICE_NAME_PATTERN',
    inputs: () => [fill('a-', '', '!'), fill('-', 'a')],
    run: (input) => SERVICE_NAME_PATTERN.test(input),
  },
  {
    name: 'members/console-client: isS256Challenge, isCodeVerifier',
    inputs: () => [fill('a'), fill('a', '', '!'), fill('~')],
    run: (input) => isS256Challenge(input) || isCodeVerifier(input),
  },
  {
    name: 'members/member-schemas: USERNAME_PATTERN (invitation form and service)',
    inputs: () => [fill('a', '', '!'), fill('a._@+-')],
    run: (input) => new RegExp(USERNAME_PATTERN).test(input),
  },
  {
    name: 'members/passwords: passwordProblem',
    inputs: () => [fill('aB1!'), fill('a')],
    run: (input) => passwordProblem(input, 'someone'),
  },
  {
    name: 'members/sign-in-page: escapeHtml',
    inputs: () => [fill('<&"\''), fill('a')],
    run: (input) => escapeHtml(input),
  },
  {
    name: 'oauth/token-request: clientCredentials (Authorization: Basic)',
    inputs: () => [
      fill('QUFB', 'Basic ', ' !'),
      fill(' ', 'Basic', 'x'),
      fill('=', 'Basic a', '!'),
    ],
    run: (input) => clientCredentials(request({ authorization: input }), {}),
  },
  {
    name: 'storage/blob-store: SHA256_HEX',
    inputs: () => [fill('a', '', 'x')],
    run: (input) => SHA256_HEX.test(input),
  },
  {
    name: 'storage/content-check: parseMimeType',
    inputs: () => [fill(' ; a=b', 'a/b', ';'), fill('a', 'a/', '/')],
    run: (input) => parseMimeType(input),
  },
];

/** Each string keyword of the request schemas (`pattern:…`, `format:…`), from the document. */
export function requestSchemaKeywords(): string[] {
  const document = JSON.parse(
    readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'),
  ) as { paths: Record<string, Record<string, unknown>>; components: { schemas: object } };
  const found = new Set<string>();
  const visited = new Set<unknown>();
  const walk = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null || visited.has(schema)) return;
    visited.add(schema);
    const node = schema as Record<string, unknown>;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop()!;
      walk((document.components.schemas as Record<string, unknown>)[name]);
      return;
    }
    if (typeof node.pattern === 'string') found.add(`pattern:${node.pattern}`);
    if (typeof node.format === 'string' && node.format !== 'binary')
      found.add(`format:${node.format}`);
    for (const value of Object.values(node)) walk(value);
  };
  for (const operations of Object.values(document.paths))
    for (const operation of Object.values(operations)) {
      const { parameters, requestBody } = operation as {
        parameters?: { schema?: unknown }[];
        requestBody?: { content?: Record<string, { schema?: unknown }> };
      };
      for (const parameter of parameters ?? []) walk(parameter.schema);
      for (const media of Object.values(requestBody?.content ?? {})) walk(media.schema);
    }
  return [...found].sort();
}

/** The schema keywords as cases, run through the server's JSON parser and validator. */
export const SCHEMA_CASES: LinearCase[] = Object.entries(SCHEMA_KEYWORD_INPUTS).map(
  ([keyword, inputs]) => {
    const colon = keyword.indexOf(':');
    const [kind, value] = [keyword.slice(0, colon), keyword.slice(colon + 1)];
    return {
      name: `request schemas: ${keyword}`,
      inputs,
      run: (input: string) => validated({ [kind]: value }, input),
    };
  },
);
