// /private/catalog/dynamicattributetypes
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../http/error-body.ts';
import { PagingQuery } from '../../../http/paging.ts';
import { ifMatchVersion, withVersionEtag } from '../../../http/etag.ts';
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
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a dynamic attribute type',
        body: AttributeTypeBody,
        response: { 201: AttributeType, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = withVersionEtag(
        reply,
        await attributes.create(request.tenant.id, request.body),
      );
      return reply.code(201).header('Location', `${base}/${created.Id}`).send(created);
    },
  );
  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List dynamic attribute types',
        querystring: PagingQuery,
        response: { 200: AttributeTypeList },
      },
    },
    async (request) => attributes.list(request.tenant.id, request.query),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Fetch a dynamic attribute type',
        params: IdParams,
        response: { 200: AttributeType },
      },
    },
    async (request, reply) =>
      withVersionEtag(reply, await attributes.get(request.tenant.id, request.params.id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a dynamic attribute type',
        description: 'Honours If-Match (412 when the type changed).',
        params: IdParams,
        body: AttributeTypeBody,
        response: { 200: AttributeType, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await attributes.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.patch(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Partially update a dynamic attribute type',
        description: 'Honours If-Match (412 when the type changed).',
        params: IdParams,
        body: AttributeTypePatch,
        response: { 200: AttributeType, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withVersionEtag(
        reply,
        await attributes.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatchVersion(request),
        ),
      ),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a dynamic attribute type (409 while items use it)',
        description: 'Honours If-Match (412 when the type changed).',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await attributes.delete(request.tenant.id, request.params.id, ifMatchVersion(request));
      return reply.code(204).send(null);
    },
  );
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
