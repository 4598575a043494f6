// Every answer the suite receives over HTTP is checked against the OpenAPI document of the server
// that gave it (the document of the same build): its status is documented for the operation, the
// headers the document marks required are there, and its body is of a documented media type and
// valid against the documented schema with no field the schema does not list. A mismatch throws
// from the call that received the answer, so it fails the test that made the request.
//
// The operation is found the way Fastify's router finds the route: by method (HEAD also by GET,
// as Fastify answers HEAD for every GET route), then by the document's path templates, a literal
// segment before a parameter. Schemas are validated by Ajv (JSON Schema 2020-12, the dialect of
// OpenAPI 3.1) on a copy of the document in which every object schema that does not say which
// other properties it takes is closed (`unevaluatedProperties: false`): a body with a field the
// document does not list is a mismatch, while the document itself stays as clients read it.
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

interface HeaderObject {
  required?: boolean;
  schema?: object;
  /** A header defined once under components.headers. */
  $ref?: string;
}
interface MediaTypeObject {
  schema?: object;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, HeaderObject> };
}

/** One answer as the client received it. */
export interface Answer {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** The Host header sent. */
  host: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/**
 * Answers that no operation of the document describes, by rule. The document lists the API's
 * operations; these routes are hidden from it on purpose (`schema.hide`) or are not routes.
 */
function outsideTheDocument(answer: Answer, path: string): boolean {
  // CORS preflights are answered by @fastify/cors before routing; they are not operations.
  if (answer.method === 'OPTIONS') return true;
  // The web console's page and files (docs/console.md), the rendered reference and its assets,
  // the document itself and the Prometheus text for scrapers: not API operations.
  if (/^\/(console|docs)(\/|$)/.test(path)) return true;
  if (path === '/openapi.json' || path === '/metrics') return true;
  // The integration portal (`{ServiceName}.portal.{INTEGRATION_HOST}`): a page for people and
  // the status it polls, not API operations.
  if (/^[^.]+\.portal\./i.test(answer.host)) return true;
  return false;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Template {
  path: string;
  /** A literal segment as text; one with parameters as a pattern. */
  segments: (string | RegExp)[];
  operations: Map<string, OperationObject>;
}

function templateOf(path: string, item: Record<string, OperationObject>): Template {
  const segments = path.split('/').map((segment) => {
    if (!segment.includes('{')) return segment;
    const source = segment
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}$`);
  });
  const operations = new Map<string, OperationObject>();
  for (const method of METHODS) {
    const operation = item[method];
    if (operation) operations.set(method.toUpperCase(), operation);
  }
  return { path, segments, operations };
}

/** Fastify's router prefers a literal segment to a parameter, segment by segment. */
function byRouterPriority(a: Template, b: Template): number {
  for (let i = 0; i < a.segments.length; i++) {
    const literalA = typeof a.segments[i] === 'string';
    const literalB = typeof b.segments[i] === 'string';
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

const pointer = (...parts: string[]) =>
  parts
    .map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1')))
    .join('/');

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_VALUES = [
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
];
const OPEN_KEYWORDS = ['additionalProperties', 'unevaluatedProperties', 'patternProperties'];

const isObjectSchema = (schema: Record<string, unknown>) =>
  schema.type === 'object' ||
  (Array.isArray(schema.type) && schema.type.includes('object')) ||
  'properties' in schema;

/**
 * A copy of a schema in which every object schema that does not say which other properties it
 * takes refuses them. `allOf` members are left open and their parent is closed instead
 * (`unevaluatedProperties` sees the properties every member evaluates); each `anyOf`/`oneOf`
 * member is a whole alternative and is closed by itself.
 */
export function closedSchema(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((member) => closedSchema(member, inAllOf));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...source };
  for (const key of SCHEMA_MAPS) {
    const map = source[key];
    if (map && typeof map === 'object')
      copy[key] = Object.fromEntries(
        Object.entries(map).map(([name, member]) => [name, closedSchema(member)]),
      );
  }
  for (const key of SCHEMA_VALUES) if (key in source) copy[key] = closedSchema(source[key]);
  if (Array.isArray(source.prefixItems)) copy.prefixItems = closedSchema(source.prefixItems);
  if (Array.isArray(source.allOf)) copy.allOf = closedSchema(source.allOf, true);
  for (const key of ['anyOf', 'oneOf'])
    if (Array.isArray(source[key])) copy[key] = closedSchema(source[key]);
  const composedOfObjects =
    Array.isArray(source.allOf) &&
    (source.allOf as unknown[]).some(
      (member) =>
        typeof member === 'object' &&
        member !== null &&
        isObjectSchema(member as Record<string, unknown>),
    );
  if (
    !inAllOf &&
    (isObjectSchema(source) || composedOfObjects) &&
    !OPEN_KEYWORDS.some((key) => key in source)
  )
    copy.unevaluatedProperties = false;
  return copy;
}

/** The document with its response and component schemas closed (see closedSchema). */
function closedDocument(document: OpenApiDocument): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    paths[path] = {};
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const responses: Record<string, ResponseObject> = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content
          ? Object.fromEntries(
              Object.entries(response.content).map(([type, media]) => [
                type,
                { ...media, schema: closedSchema(media.schema) as object },
              ]),
            )
          : undefined;
        responses[status] = { ...response, ...(content ? { content } : {}) };
      }
      paths[path][method] = { responses };
    }
  }
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
      name,
      closedSchema(schema),
    ]),
  );
  return { paths, components: { schemas } };
}

const JSON_TYPE = /^application\/(.+\+)?json$/;

function headerValue(headers: Answer['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'unevaluatedProperties')
    return `${at}: field ${String(params.unevaluatedProperty)} is not in the document`;
  if (error.keyword === 'required')
    return `${at}: required field ${String(params.missingProperty)} is missing`;
  return `${at}: ${error.message ?? error.keyword} ${JSON.stringify(params)}`;
}

/** Media types whose empty body is a valid answer: no record at all. */
const LINE_DELIMITED = new Set([
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
]);

export class OpenApiValidator {
  /** Every (operation, status) pair the document lists, as `GET /items/{id} 200`. */
  readonly pairs: string[];
  private readonly templates: Template[];
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly headerAjv = new Ajv2020({ strict: false, coerceTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly documentId: string;
  private readonly headers: Record<string, HeaderObject>;

  constructor(document: OpenApiDocument) {
    this.headers = document.components?.headers ?? {};
    this.templates = Object.entries(document.paths).map(([path, item]) => templateOf(path, item));
    this.pairs = this.templates.flatMap((template) =>
      [...template.operations].flatMap(([method, operation]) =>
        Object.keys(operation.responses ?? {}).map(
          (status) => `${method} ${template.path} ${status}`,
        ),
      ),
    );
    addFormats.default(this.ajv);
    addFormats.default(this.headerAjv);
    this.documentId = 'openapi-document';
    // The document is no JSON Schema, but Ajv resolves references into any part of it; its own
    // `#/components/schemas/…` references resolve against it.
    this.ajv.addSchema(closedDocument(document), this.documentId, undefined, false);
  }

  /** The mismatches of an answer with the document (none when it matches or is not an API's). */
  problems(answer: Answer): { operation?: string; status?: string; problems: string[] } {
    const path = pathOf(answer.url);
    if (outsideTheDocument(answer, path)) return { problems: [] };
    const found = this.operationFor(answer.method, path);
    if (!found) return { problems: this.unroutedProblems(answer) };
    const { template, method, operation } = found;
    const name = `${method} ${template.path}`;
    const responses = operation.responses ?? {};
    const status = String(answer.status);
    const key = [status, `${status[0]}XX`, 'default'].find((code) => code in responses);
    if (!key)
      return {
        operation: name,
        problems: [
          `status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`,
        ],
      };
    const response = responses[key]!;
    const pointerTo = ['paths', template.path, method.toLowerCase(), 'responses', key];
    return {
      operation: name,
      status: key,
      problems: [
        ...this.headerProblems(answer, response),
        ...this.bodyProblems(answer, response, pointerTo),
      ],
    };
  }

  private operationFor(method: string, path: string) {
    const parts = path.split('/');
    const matches = (template: Template) =>
      template.segments.length === parts.length &&
      template.segments.every((segment, i) =>
        typeof segment === 'string' ? segment === parts[i] : segment.test(parts[i]!),
      );
    const lookups = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
    for (const lookup of lookups) {
      const template = this.templates
        .filter((candidate) => candidate.operations.has(lookup) && matches(candidate))
        .sort(byRouterPriority)[0];
      if (template)
        return { template, method: lookup, operation: template.operations.get(lookup)! };
    }
    return undefined;
  }

  /** A request that no operation names is answered by the not-found handler: an error body. */
  private unroutedProblems(answer: Answer): string[] {
    if (answer.status < 400)
      return [`no operation of the document is ${answer.method} ${pathOf(answer.url)}`];
    const type = mediaTypeOf(answer);
    if (answer.body.length === 0 || !type || !JSON_TYPE.test(type))
      return [`an error without the contract's error body (${type ?? 'no content type'})`];
    return this.schemaProblems(answer.body, ['components', 'schemas', 'ErrorBody']);
  }

  private headerProblems(answer: Answer, response: ResponseObject): string[] {
    const problems: string[] = [];
    for (const [name, defined] of Object.entries(response.headers ?? {})) {
      const header = defined.$ref
        ? this.headers[defined.$ref.replace('#/components/headers/', '')]
        : defined;
      if (!header) {
        problems.push(`header ${name}: ${defined.$ref} is not defined in the document`);
        continue;
      }
      // OpenAPI: a Content-Type header definition is ignored (the content map says it).
      if (name.toLowerCase() === 'content-type') continue;
      const value = headerValue(answer.headers, name);
      if (value === undefined) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (header.schema && !this.headerAjv.validate(header.schema, value))
        problems.push(`header ${name}: ${JSON.stringify(value)} ${this.headerAjv.errorsText()}`);
    }
    return problems;
  }

  private bodyProblems(answer: Answer, response: ResponseObject, at: string[]): string[] {
    const documented = Object.keys(response.content ?? {});
    const type = mediaTypeOf(answer);
    if (answer.body.length === 0) {
      // A HEAD answer and a 304 carry the headers of a GET answer without its body (RFC 9110).
      if (answer.method === 'HEAD' || answer.status === 304) return [];
      // An answer the document gives no body must not name a media type: clients (jQuery,
      // Prism) parse an empty body of a JSON type and fail.
      if (documented.length === 0)
        return type ? [`Content-Type ${type} on an answer the document gives no body`] : [];
      // Zero lines of a line-delimited format are a whole answer (import results before any).
      if (type && LINE_DELIMITED.has(type) && documented.includes(type)) return [];
      return [`the body is empty, but the document describes one (${documented.join(', ')})`];
    }
    if (documented.length === 0)
      return [`a body (${type ?? 'no content type'}) where the document describes none`];
    if (!type) return [`a body without Content-Type (documented: ${documented.join(', ')})`];
    const media = matchingMediaType(type, documented);
    if (!media)
      return [`content type ${type} is not documented (documented: ${documented.join(', ')})`];
    // Only a JSON media type has a structure the schema describes; the schema of another (CSV,
    // NDJSON, HTML, `*/*` for an asset's bytes, whatever they are) describes a string of bytes.
    if (!JSON_TYPE.test(media.toLowerCase())) return [];
    return this.schemaProblems(answer.body, [...at, 'content', media, 'schema']);
  }

  private schemaProblems(body: Buffer, at: string[]): string[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return ['the body is not JSON'];
    }
    const ref = `${this.documentId}#/${pointer(...at)}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(parsed)) return [];
    return (validate.errors ?? []).slice(0, 12).map((error) => `body ${describeError(error)}`);
  }
}

function pathOf(url: string): string {
  const path = url.split('?')[0]!.split('#')[0]!;
  // The server ignores a trailing slash (routerOptions.ignoreTrailingSlash).
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function mediaTypeOf(answer: Answer): string | undefined {
  return headerValue(answer.headers, 'content-type')?.split(';')[0]!.trim().toLowerCase();
}

function matchingMediaType(type: string, documented: string[]): string | undefined {
  const lower = documented.map((media) => media.toLowerCase());
  const range = `${type.split('/')[0]}/*`;
  const index = [type, range, '*/*'].map((wanted) => lower.indexOf(wanted)).find((i) => i >= 0);
  return index === undefined ? undefined : documented[index];
}

const validators = new Map<string, OpenApiValidator>();

/** The validator of a document (one per distinct document in a worker: Ajv compiles lazily). */
export function validatorFor(document: OpenApiDocument): OpenApiValidator {
  const hash = createHash('sha256').update(JSON.stringify(document)).digest('hex');
  let validator = validators.get(hash);
  if (!validator) {
    validator = new OpenApiValidator(document);
    validators.set(hash, validator);
    recordCoverage({ documented: validator.pairs });
  }
  return validator;
}

const seen = new Set<string>();

/**
 * With OPENAPI_COVERAGE_FILE set, the pairs every document lists and every (operation, status)
 * pair seen are written to that file once per worker, as JSON lines; the global setup counts
 * them at the end of the run (openapi-coverage-setup.ts).
 */
function recordCoverage(line: object): void {
  const file = process.env.OPENAPI_COVERAGE_FILE;
  if (!file) return;
  const text = JSON.stringify(line);
  if (seen.has(text)) return;
  seen.add(text);
  appendFileSync(file, `${text}\n`);
}

export class OpenApiMismatch extends Error {
  override name = 'OpenApiMismatch';
}

/** Throws when the answer does not match the document; records the pair it saw. */
export function checkAnswer(validator: OpenApiValidator, answer: Answer): void {
  const { operation, status, problems } = validator.problems(answer);
  if (operation && status) recordCoverage({ seen: `${operation} ${status}` });
  if (problems.length === 0) return;
  throw new OpenApiMismatch(
    `The answer does not match the OpenAPI document: ${answer.method} ${answer.url} ` +
      `(host ${answer.host}${operation ? `, operation ${operation}` : ', no operation'}) ` +
      `answered ${answer.status}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
  );
}

const checkedApps = new WeakSet<FastifyInstance>();

/**
 * Makes the app's inject check every answer against the app's own document (app.swagger()),
 * throwing from the call when it does not match. The suite calls inject with options only; the
 * chain and callback forms are refused so that no answer escapes the check.
 */
export function checkInjectedAnswers(app: FastifyInstance): void {
  if (checkedApps.has(app)) return;
  checkedApps.add(app);
  const inject = app.inject.bind(app);
  let validator: OpenApiValidator | undefined;
  const checked = async (options: InjectOptions | string): Promise<LightMyRequestResponse> => {
    const response = await inject(options);
    validator ??= validatorFor(app.swagger() as OpenApiDocument);
    checkAnswer(validator, injectedAnswer(options, response));
    return response;
  };
  const wrapper = (options?: InjectOptions | string, callback?: unknown) => {
    if (options === undefined || callback !== undefined)
      throw new Error('inject: call it with options and await it, so that its answer is checked');
    return checked(options);
  };
  Object.defineProperty(app, 'inject', { value: wrapper, configurable: true, writable: true });
}

function injectedAnswer(options: InjectOptions | string, response: LightMyRequestResponse): Answer {
  const request = typeof options === 'string' ? { url: options } : options;
  const target = request.url ?? request.path ?? '/';
  // The query does not take part in finding the operation; only the path is needed.
  const url = typeof target === 'string' ? target : target.pathname;
  const host =
    headerValue(request.headers ?? {}, 'host') ??
    (typeof request.authority === 'string' ? request.authority : 'localhost:80');
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    url,
    host,
    status: response.statusCode,
    headers: response.headers,
    body: response.rawPayload,
  };
}
