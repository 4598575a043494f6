// The usual routes of a small resource (create, fetch, update by PUT and by PATCH, delete, list)
// registered from a description, so that a resource's routes file states only what differs: its
// paths, schemas, texts and error codes. What every such route does alike lives here once: the
// ETag of the resource answered, If-Match checked against the version a write changes, 201 with
// Location on create, 204 on delete, and what the OpenAPI document says of all that (operationIds
// made from the resource's name, the If-Match header and 412 on writes, the sentences every such
// operation shares). PUT and PATCH share one handler; the service is told which.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { errorResponses } from './error-body.ts';
import { checkIfMatch, IF_MATCH_NOTE, IfMatchHeaders, setEtag } from './etag.ts';
import type { Page, Paging } from './paging.ts';
import { PagingQuery } from './paging.ts';

/** A resource as the API shows it and the version behind its ETag. */
export interface VersionedResource<T, V> {
  value: T;
  version: V;
}

/** A service's check of If-Match against the current version of what it is about to change. */
export type IfMatchCheck<V> = (version: V) => void;

/** The service methods the routes call; `partial` tells a PATCH from a PUT. */
export interface CrudService<T, V, Id, Create, Update> {
  create(tenantId: number, body: Create): Promise<VersionedResource<T, V>>;
  get(tenantId: number, id: Id): Promise<VersionedResource<T, V>>;
  update(
    tenantId: number,
    id: Id,
    body: Update,
    checkVersion: IfMatchCheck<V>,
    partial: boolean,
  ): Promise<VersionedResource<T, V>>;
  delete(tenantId: number, id: Id, checkVersion: IfMatchCheck<V>): Promise<void>;
  list?(tenantId: number, paging: Paging): Promise<Page<T>>;
}

/** What the OpenAPI document says of one route, and the error codes it documents. */
export interface RouteText {
  summary: string;
  /** What this resource's operation does beyond what every such one does (the helper says that). */
  description?: string;
  /** Status codes answered with the error body beyond those every route documents. */
  errors?: number[];
}

export interface CrudRoutes<
  T extends { Id: Id },
  V,
  Id,
  CreateBody extends TSchema,
  PutBody extends TSchema,
  PatchBody extends TSchema,
> {
  tags: string[];
  /**
   * The resource's name in PascalCase, singular and plural, for the operationIds: `Brand` and
   * `Brands` give createBrand, getBrand, updateBrand, patchBrand, deleteBrand and listBrands.
   */
  name: { one: string; many: string };
  /** The path of one resource without its id: create is POSTed here, `/:id` is appended. */
  path: string;
  /** The schema of the `:id` path parameter. */
  params: TSchema;
  /** The schema of the resource answered. */
  resource: TSchema;
  /** The ETag of a version (`etagFor` quotes it). */
  etagOf: (version: V) => string | number | Date;
  service: CrudService<T, V, Id, Static<CreateBody>, Static<PutBody> | Static<PatchBody>>;
  create: RouteText & { body: CreateBody };
  get: RouteText;
  put: RouteText & { body: PutBody };
  patch?: RouteText & { body: PatchBody };
  /** `deleted` is the schema of the empty 204 answer when it says more than null. */
  delete: RouteText & { deleted?: TSchema };
  /** A page of resources with skip/take (`path` defaults to the resource path). */
  list?: RouteText & { path?: string; response: TSchema };
}

// What every operation of the kind does, said after what the resource's own text says.
const SHARED_TEXT = {
  create: 'Answers 201 with the created resource, its ETag and its Location.',
  get:
    'Answers the resource with its ETag (send it as If-Match to make a later change ' +
    'conditional); 404 for an unknown id.',
  put: 'Answers the updated resource with its new ETag.',
  patch: 'Changes only the fields sent; answers the resource with its new ETag.',
  delete: 'Answers 204 with no body.',
  list:
    'One page at a time: skip (default 0) and take (1 to 1000, default 20); TotalCount is the ' +
    'size of the whole collection.',
} as const;

const details = (
  operationId: string,
  { summary, description }: RouteText,
  ...shared: string[]
) => ({
  operationId,
  summary,
  description: [description, ...shared].filter(Boolean).join(' '),
});

/** A conditional write's error answers: its own, and 412 for a stale If-Match. */
const conditionalErrors = (errors: number[] = []) => errorResponses(...new Set([...errors, 412]));

/**
 * Registers create, fetch, PUT, PATCH (when described), delete and list (when described), in that
 * order (the order of the paths and methods in the OpenAPI document).
 */
export function registerCrudRoutes<
  T extends { Id: Id },
  V,
  Id,
  CreateBody extends TSchema,
  PutBody extends TSchema,
  PatchBody extends TSchema = PutBody,
>(app: FastifyInstance, routes: CrudRoutes<T, V, Id, CreateBody, PutBody, PatchBody>): void {
  const { tags, name, path, params, resource, etagOf, service } = routes;
  const one = `${path}/:id`;
  const answer = (reply: FastifyReply, { value, version }: VersionedResource<T, V>): T => {
    setEtag(reply, etagOf(version));
    return value;
  };
  const ifMatch =
    (request: FastifyRequest): IfMatchCheck<V> =>
    (version) =>
      checkIfMatch(request, etagOf(version));
  const idOf = (request: FastifyRequest) => (request.params as { id: Id }).id;

  app.route({
    method: 'POST',
    url: path,
    schema: {
      tags,
      ...details(`create${name.one}`, routes.create, SHARED_TEXT.create),
      body: routes.create.body,
      response: { 201: resource, ...errorResponses(...(routes.create.errors ?? [])) },
    },
    handler: async (request, reply) => {
      const body = request.body as Static<CreateBody>;
      const created = answer(reply, await service.create(request.tenant.id, body));
      return reply
        .code(201)
        .header('Location', `${path}/${String(created.Id)}`)
        .send(created);
    },
  });
  app.route({
    method: 'GET',
    url: one,
    schema: {
      tags,
      ...details(`get${name.one}`, routes.get, SHARED_TEXT.get),
      params,
      response: { 200: resource, ...errorResponses(...(routes.get.errors ?? [])) },
    },
    handler: async (request, reply) =>
      answer(reply, await service.get(request.tenant.id, idOf(request))),
  });
  // PUT (full) and PATCH (partial) share one handler; only the schema and `partial` differ.
  const updates = [
    { method: 'PUT', verb: 'update', text: routes.put, partial: false },
    ...(routes.patch
      ? [{ method: 'PATCH', verb: 'patch', text: routes.patch, partial: true }]
      : []),
  ];
  for (const { method, verb, text, partial } of updates) {
    const shared = partial ? SHARED_TEXT.patch : SHARED_TEXT.put;
    app.route({
      method,
      url: one,
      schema: {
        tags,
        ...details(`${verb}${name.one}`, text, shared, IF_MATCH_NOTE),
        params,
        headers: IfMatchHeaders,
        body: text.body,
        response: { 200: resource, ...conditionalErrors(text.errors) },
      },
      handler: async (request, reply) => {
        const body = request.body as Static<PutBody> | Static<PatchBody>;
        const { id: tenantId } = request.tenant;
        const updated = await service.update(
          tenantId,
          idOf(request),
          body,
          ifMatch(request),
          partial,
        );
        return answer(reply, updated);
      },
    });
  }
  app.route({
    method: 'DELETE',
    url: one,
    schema: {
      tags,
      ...details(`delete${name.one}`, routes.delete, SHARED_TEXT.delete, IF_MATCH_NOTE),
      params,
      headers: IfMatchHeaders,
      response: {
        204: routes.delete.deleted ?? Type.Null(),
        ...conditionalErrors(routes.delete.errors),
      },
    },
    handler: async (request, reply) => {
      await service.delete(request.tenant.id, idOf(request), ifMatch(request));
      return reply.code(204).send(null);
    },
  });
  const { list } = routes;
  if (list) {
    const listOf = service.list?.bind(service);
    if (!listOf) throw new Error(`${path}: a list route needs the service's list method`);
    app.route({
      method: 'GET',
      url: list.path ?? path,
      schema: {
        tags,
        ...details(`list${name.many}`, list, SHARED_TEXT.list),
        querystring: PagingQuery,
        response: { 200: list.response, ...errorResponses(...(list.errors ?? [])) },
      },
      handler: async (request) => listOf(request.tenant.id, request.query as Paging),
    });
  }
}
