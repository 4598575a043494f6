// /management/company/devicetypes[/{id}], and the public list /company/devicetypes.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import { DataEnvelope, PagingQuery, inDataEnvelope } from '../../http/paging.ts';
import { DeviceType, DeviceTypeBody, DeviceTypeList, IdParams } from './company-schemas.ts';
import type { DeviceTypeService } from './device-type-service.ts';

const tags = ['Company: device types'];
const BASE = '/management/company/devicetypes';

export const deviceTypeRoutes: FastifyPluginAsync<{ deviceTypes: DeviceTypeService }> = async (
  instance,
  { deviceTypes },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Create a device type',
        body: DeviceTypeBody,
        response: { 201: DeviceType },
      },
    },
    async (request, reply) => {
      const { value, version } = await deviceTypes.create(request.tenant.id, request.body);
      setEtag(reply, version);
      return reply.code(201).header('Location', `${BASE}/${value.Id}`).send(value);
    },
  );
  app.get(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Fetch a device type',
        params: IdParams,
        response: { 200: DeviceType },
      },
    },
    async (request, reply) => {
      return withEtag(reply, await deviceTypes.get(request.tenant.id, request.params.id));
    },
  );
  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a device type',
        params: IdParams,
        body: DeviceTypeBody,
        response: { 200: DeviceType },
      },
    },
    async (request, reply) => {
      return withEtag(
        reply,
        await deviceTypes.update(
          request.tenant.id,
          request.params.id,
          request.body,
          ifMatch(request),
        ),
      );
    },
  );
  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a device type (409 while logical devices have it)',
        params: IdParams,
        response: { 204: Type.Null(), 409: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      await deviceTypes.delete(request.tenant.id, request.params.id, ifMatch(request));
      return reply.code(204).send(null);
    },
  );
  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: 'List device types',
        querystring: PagingQuery,
        response: { 200: DeviceTypeList },
      },
    },
    async (request) => deviceTypes.list(request.tenant.id, request.query),
  );
  app.get(
    '/company/devicetypes',
    {
      schema: {
        tags,
        summary: 'List device types (device-facing)',
        querystring: PagingQuery,
        response: { 200: DataEnvelope(DeviceTypeList, 'DeviceTypeListData') },
      },
    },
    async (request) => inDataEnvelope(await deviceTypes.list(request.tenant.id, request.query)),
  );
};
