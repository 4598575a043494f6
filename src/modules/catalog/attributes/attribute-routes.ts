// /private/catalog/dynamicattributetypes
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { registerCrudRoutes } from '../../../http/crud-routes.ts';
import { versionTag } from '../../../http/etag.ts';
import { IdParams } from '../common-schemas.ts';
import {
  AttributeType,
  AttributeTypeBody,
  AttributeTypeList,
  AttributeTypePatch,
  DynamicAttribute,
} from './attribute-schemas.ts';
import type { AttributeService } from './attribute-service.ts';

const tags = ['Dynamic attribute types'];
const base = '/private/catalog/dynamicattributetypes';

export const attributeRoutes: FastifyPluginAsync<{ attributes: AttributeService }> = async (
  instance,
  { attributes },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: base,
    params: IdParams,
    resource: AttributeType,
    etagOf: versionTag,
    service: attributes,
    create: { summary: 'Create a dynamic attribute type', body: AttributeTypeBody, errors: [409] },
    get: { summary: 'Fetch a dynamic attribute type' },
    put: {
      summary: 'Update a dynamic attribute type',
      description: 'Honours If-Match (412 when the type changed).',
      body: AttributeTypeBody,
      errors: [409, 412],
    },
    patch: {
      summary: 'Partially update a dynamic attribute type',
      description: 'Honours If-Match (412 when the type changed).',
      body: AttributeTypePatch,
      errors: [409, 412],
    },
    delete: {
      summary: 'Delete a dynamic attribute type (409 while items use it)',
      description: 'Honours If-Match (412 when the type changed).',
      errors: [409, 412],
    },
    list: { summary: 'List dynamic attribute types', response: AttributeTypeList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `${base}/:id/dynamicattributes`,
    {
      schema: {
        tags,
        summary: 'The values of this type that items use',
        params: IdParams,
        response: { 200: Type.Array(DynamicAttribute) },
      },
    },
    async (request) => attributes.valuesInUse(request.tenant.id, request.params.id),
  );
};
