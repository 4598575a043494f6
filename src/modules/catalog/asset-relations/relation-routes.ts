// /private/catalog/{items|brands|categories}/{id}/{image|video|document}: the asset relations.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
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
// The operationIds' words: addItemImage, listBrandVideos, removeCategoryDocument…
const ENTITY_NAME = { items: 'Item', brands: 'Brand', categories: 'Category' } as const;
const KIND_NAME = { image: 'Image', video: 'Video', document: 'Document' } as const;
const FAMILY = {
  image: 'image/*',
  video: 'video/*',
  document: 'neither image/* nor video/*',
} as const;

export const relationsTag: OpenApiTag = {
  name: 'Asset relations',
  description:
    'The images, videos and documents (uploaded assets) of items, brands and categories, one ' +
    'of each kind the default.',
};

export const relationRoutes: FastifyPluginAsync<{ relations: RelationService }> = async (
  instance,
  { relations },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  for (const entity of RELATED_ENTITIES) {
    for (const kind of RELATION_KINDS) {
      const path = `/private/catalog/${entity}/:id/${kind}`;
      const tags = [relationsTag.name];
      const of = `${kind}s of ${LABEL[entity]}`;
      const name = `${ENTITY_NAME[entity]}${KIND_NAME[kind]}`;
      app.post(
        path,
        {
          schema: {
            tags,
            operationId: `add${name}`,
            summary: `Relate an asset as one of the ${of}`,
            description:
              `The asset's MIME type must be ${FAMILY[kind]} (409 AssetTypeMismatch otherwise); 404 for an ` +
              'unknown asset or entity; 409 when it is related already. isDefault makes it the ' +
              'default of its kind. Answers 201 with the relation.',
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
            operationId: `list${name}s`,
            summary: `List the ${of}`,
            description:
              'Every related asset with its AssetUrl (not paged). 404 for an unknown entity.',
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
            operationId: `update${name}`,
            summary: `Make one of the ${of} the default, or not`,
            description:
              'IsDefault true makes the related asset the default of its kind (the previous ' +
              'default stops being one). 404 when the asset is not related. Answers the relation.',
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
            operationId: `remove${name}`,
            summary: `Remove an asset from the ${of} (the asset stays)`,
            description: 'Answers 204; 404 when the asset is not related.',
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
