// /private/catalog/{items|brands|categories}/{id}/{image|video|document}: the asset relations.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import {
  AddRelationQuery,
  RelatedAssetList,
  Relation,
  RelationBody,
  RelationParams,
  RemoveRelationQuery,
} from './relation-schemas.ts';
import { RELATED_ENTITIES, RELATION_KINDS, type RelationService } from './relation-service.ts';

const errors = { 404: { $ref: 'ErrorBody#' }, 409: { $ref: 'ErrorBody#' } };
const LABEL = { items: 'an item', brands: 'a brand', categories: 'a category' } as const;

export const relationRoutes: FastifyPluginAsync<{ relations: RelationService }> = async (
  instance,
  { relations },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  for (const entity of RELATED_ENTITIES) {
    for (const kind of RELATION_KINDS) {
      const path = `/private/catalog/${entity}/:id/${kind}`;
      const tags = ['Asset relations'];
      const of = `${kind}s of ${LABEL[entity]}`;
      app.post(
        path,
        {
          schema: {
            tags,
            summary: `Relate an asset as one of the ${of}`,
            description: `409 unless the asset is ${kind === 'document' ? 'neither image/* nor video/*' : `${kind}/*`}.`,
            params: RelationParams,
            querystring: AddRelationQuery,
            response: { 201: Relation, ...errors },
          },
        },
        async (request, reply) => {
          const { id } = request.params;
          const target = { tenantId: request.tenant.id, entity, entityId: id, kind };
          const relation = await relations.add(
            target,
            request.query.assetId,
            request.query.isDefault,
          );
          return reply
            .code(201)
            .header('Location', `/private/catalog/${entity}/${id}/${kind}`)
            .send(relation);
        },
      );
      app.get(
        path,
        {
          schema: {
            tags,
            summary: `List the ${of}`,
            params: RelationParams,
            response: { 200: RelatedAssetList, 404: { $ref: 'ErrorBody#' } },
          },
        },
        async (request) =>
          relations.list(
            { tenantId: request.tenant.id, entity, entityId: request.params.id, kind },
            request.tenant.baseUrl,
          ),
      );
      app.put(
        path,
        {
          schema: {
            tags,
            summary: `Make one of the ${of} the default, or not`,
            params: RelationParams,
            body: RelationBody,
            response: { 200: Relation, ...errors },
          },
        },
        async (request) => {
          const { id } = request.params;
          assertBodyIdMatches(request.body.RelatedId, id);
          return relations.update(
            { tenantId: request.tenant.id, entity, entityId: id, kind },
            request.body.AssetId,
            request.body.IsDefault,
          );
        },
      );
      app.delete(
        path,
        {
          schema: {
            tags,
            summary: `Remove an asset from the ${of} (the asset stays)`,
            params: RelationParams,
            querystring: RemoveRelationQuery,
            response: { 204: Type.Null(), 404: { $ref: 'ErrorBody#' } },
          },
        },
        async (request, reply) => {
          await relations.remove(
            { tenantId: request.tenant.id, entity, entityId: request.params.id, kind },
            request.query.assetId,
          );
          return reply.code(204).send(null);
        },
      );
    }
  }
};
