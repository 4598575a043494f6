// What the OpenAPI document says of each operation beyond its schemas, held to one standard so
// that a client generator or a linter finds every operation alike: a stable operationId (declared
// by the route, never made from its path), a summary, a description and a declared tag; query
// parameters and headers that the server defaults are optional; a body the handler streams
// (an upload, an import file) is documented with its media types although nothing validates it.
import type { FastifySchema, RouteOptions } from 'fastify';
import { withDocumentedKeywords } from './documented-only.ts';

/** A group of operations in the document (`tags`), with what it is about. */
export interface OpenApiTag {
  name: string;
  description: string;
}

/** A request body read as a stream by the handler: documented, not validated by a schema. */
export interface RawBody {
  description: string;
  /** False when the operation can take its input elsewhere (an import names an asset instead). */
  required: boolean;
  /** The Content-Types it accepts (`*\/*`: any). */
  mediaTypes: readonly string[];
}

declare module 'fastify' {
  interface FastifySchema {
    /** A body that no schema validates (the route removes the JSON parser): its documentation. */
    rawBody?: RawBody;
    /**
     * The JSON body may be left out (the route then sees `{}`: optionalBody.ts); the document
     * says `required: false`.
     */
    optionalBody?: boolean;
  }
}

// fastify-swagger copies a route schema's `x-` keys into the operation; the document's last pass
// turns this one into the operation's requestBody.
const RAW_BODY_KEY = 'x-raw-body';
const OPTIONAL_BODY_KEY = 'x-optional-body';

/** camelCase verb and resource, e.g. `listItems`, `issueToken`, `addItemImage`. */
const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

/**
 * Throws, failing the server's start, when a route the document shows lacks an operationId, a
 * summary, a description or a tag, or names a tag nobody declared.
 */
export function checkDocumentedRoute(route: RouteOptions, declaredTags: ReadonlySet<string>): void {
  const schema = route.schema;
  if (schema?.hide) return;
  const where = `${[route.method].flat().join(',')} ${route.url}`;
  const missing = (what: string) =>
    new Error(`${where}: the OpenAPI document needs ${what} for every operation`);
  if (!schema) throw missing('a schema (or schema.hide)');
  if (!schema.operationId || !OPERATION_ID.test(schema.operationId))
    throw missing('a camelCase operationId');
  if (!schema.summary) throw missing('a summary');
  if (!schema.description) throw missing('a description');
  if (!schema.tags?.length) throw missing('a tag');
  for (const tag of schema.tags)
    if (!declaredTags.has(tag))
      throw new Error(`${where}: the tag "${tag}" is not declared (a module's openApiTags)`);
}

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, { default?: unknown }>;
  required?: string[];
}

/**
 * A query or header schema as the document shows it: a property the server fills with its
 * `default` (Ajv's useDefaults) is one the client may leave out, whatever the handler's type says.
 */
function withDefaultsOptional(schema: unknown): unknown {
  const object = schema as ObjectSchema | undefined;
  if (!object?.properties || !object.required) return schema;
  const required = object.required.filter(
    (name) => object.properties![name]?.default === undefined,
  );
  if (required.length === object.required.length) return schema;
  const { required: _required, ...rest } = object;
  return required.length ? { ...rest, required } : rest;
}

/** The route schema the document is made from (never the one that validates requests). */
export function documentedSchema(schema: FastifySchema): FastifySchema {
  const { rawBody, optionalBody, ...rest } = withDocumentedKeywords(schema) as FastifySchema;
  return {
    ...rest,
    ...(optionalBody ? { [OPTIONAL_BODY_KEY]: true } : {}),
    ...(rest.querystring ? { querystring: withDefaultsOptional(rest.querystring) } : {}),
    ...(rest.headers ? { headers: withDefaultsOptional(rest.headers) } : {}),
    ...(rawBody ? { [RAW_BODY_KEY]: rawBody } : {}),
  };
}

type Operation = Record<string, unknown> & { operationId?: string };
type PathItem = Record<string, Operation>;

/** The document's last pass over what fastify-swagger made of the routes. */
export function finishDocument<T extends object>(document: T): T {
  const paths = (document as { paths?: Record<string, PathItem> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation[OPTIONAL_BODY_KEY]) {
        const { [OPTIONAL_BODY_KEY]: _, ...rest } = operation;
        item[method] = {
          ...rest,
          requestBody: { ...(rest.requestBody as object), required: false },
        };
        continue;
      }
      const rawBody = operation[RAW_BODY_KEY] as RawBody | undefined;
      if (!rawBody) continue;
      const { [RAW_BODY_KEY]: _, ...rest } = operation;
      item[method] = {
        ...rest,
        requestBody: {
          description: rawBody.description,
          required: rawBody.required,
          content: Object.fromEntries(
            rawBody.mediaTypes.map((type) => [
              type,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
        },
      };
    }
    // One route serving GET and HEAD is one operation object under both methods: the HEAD one
    // becomes head… instead of get… so that operationIds stay unique.
    const { get, head } = item;
    if (get && head && get.operationId === head.operationId && get.operationId?.startsWith('get'))
      item.head = { ...head, operationId: `head${get.operationId.slice(3)}` };
  }
  return document;
}
