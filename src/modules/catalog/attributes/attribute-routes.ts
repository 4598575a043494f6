// /private/catalog/dynamicattributetypes
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import type { OpenApiTag } from '../../../http/openapi-operations.ts';
import { IdParams } from '../common-schemas.ts';
import {
  AttributeType,
  AttributeTypeBody,
  AttributeTypeList,
  AttributeTypePatch,
  DynamicAttribute,
} from './attribute-schemas.ts';
import type { AttributeService } from './attribute-service.ts';

export const attributeTypesTag: OpenApiTag = {
  name: 'Dynamic attribute types',
  description:
    'The kinds of dynamic attribute items can have (colour, size…), each with the values items use.',
};
const tags = [attributeTypesTag.name];
const base = '/private/catalog/dynamicattributetypes';

export const attributeRoutes: FastifyPluginAsync<{ attributes: AttributeService }> = async (
  instance,
  { attributes },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'DynamicAttributeType', many: 'DynamicAttributeTypes' },
    path: base,
    params: IdParams,
    resource: AttributeType,
    etagOf: versionTag,
    service: attributes,
    create: {
      summary: 'Create a dynamic attribute type',
      description: 'Descriptions are unique within the tenant (409 DuplicateAttributeType).',
      body: AttributeTypeBody,
      errors: [409],
    },
    get: { summary: 'Fetch a dynamic attribute type' },
    put: {
      summary: 'Update a dynamic attribute type',
      description:
        'Descriptions are unique within the tenant (409 DuplicateAttributeType); the items ' +
        'showing the type change their ETag.',
      body: AttributeTypeBody,
      errors: [409],
    },
    patch: {
      summary: 'Partially update a dynamic attribute type',
      description:
        'Descriptions are unique within the tenant (409 DuplicateAttributeType); the items ' +
        'showing the type change their ETag.',
      body: AttributeTypePatch,
      errors: [409],
    },
    delete: {
      summary: 'Delete a dynamic attribute type (409 while items use it)',
      description: '409 AttributeTypeInUse while an item has a value of the type.',
      errors: [409],
    },
    list: { summary: 'List dynamic attribute types', response: AttributeTypeList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `${base}/:id/dynamicattributes`,
    {
      schema: {
        tags,
        operationId: 'listDynamicAttributeValuesInUse',
        summary: 'The values of this type that items use',
        description:
          'Each value once, whatever the number of items with it. 404 for an unknown type.',
        params: IdParams,
        response: { 200: Type.Array(DynamicAttribute) },
      },
    },
    async (request) => attributes.valuesInUse(request.tenant.id, request.params.id),
  );
};
