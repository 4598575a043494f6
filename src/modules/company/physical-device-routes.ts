// /management/company/physicaldevices[/{physicalDeviceId}]: the tenant's physical devices. The
// logical devices registered to one are logical-device-routes.ts's, their metadata
// logical-device-metadata-routes.ts's (both under its path, with its tag).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { PagingQuery } from '../../http/paging.ts';
import {
  PhysicalDevice,
  PhysicalDeviceBody,
  PhysicalDeviceList,
  PhysicalDeviceParams,
} from './company-schemas.ts';
import type { PhysicalDeviceService } from './physical-device-service.ts';

export const physicalDevicesTag: OpenApiTag = {
  name: 'Company: physical devices',
  description:
    "The tenant's devices (a kiosk, a tablet), each in a store or in none, with the logical " +
    'devices registered to each and their metadata. Identity tokens are bound to a physical device.',
};
/** The tag and the answers of the routes under the physical devices' path (theirs and below). */
export const tags = [physicalDevicesTag.name];
/** The physical devices' collection; their logical devices and metadata sit below it. */
export const PHYSICAL_DEVICES_PATH = '/management/company/physicaldevices';
const BASE = PHYSICAL_DEVICES_PATH;
export const noContent = { 204: Type.Null() };
export const conflict = { 409: { $ref: 'ErrorBody#' } };
export const stale = { 412: { $ref: 'ErrorBody#' } };
/** The URL path of a physical device or of something below it (a Location), its parts encoded. */
export const physicalDevicePath = (...parts: string[]) =>
  [BASE, ...parts.map(encodeURIComponent)].join('/');

export const physicalDeviceRoutes: FastifyPluginAsync<{
  physicalDevices: PhysicalDeviceService;
}> = async (instance, { physicalDevices }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    BASE,
    {
      schema: {
        tags,
        operationId: 'createPhysicalDevice',
        summary: 'Create a physical device (DeviceId chosen by the client)',
        description:
          'DeviceId is 1..256 characters without `/`, unique in the tenant (409 ' +
          'DuplicatePhysicalDeviceId); StoreId null or left out puts it in no store, an unknown ' +
          'store is 400 UnknownStore. Answers 201 with the device, its ETag and its Location.',
        body: PhysicalDeviceBody,
        response: { 201: withHeaders(PhysicalDevice, ETAG), ...conflict },
      },
    },
    async (request, reply) => {
      const { value, version } = await physicalDevices.create(request.tenant.id, request.body);
      setEtag(reply, version);
      return reply.code(201).header('Location', physicalDevicePath(value.DeviceId)).send(value);
    },
  );
  app.get(
    BASE,
    {
      schema: {
        tags,
        operationId: 'listPhysicalDevices',
        summary: 'List physical devices',
        description:
          'With their store. One page at a time: skip (default 0) and take (1 to 1000, default ' +
          '20); TotalCount counts every match of hasStoreRelation.',
        querystring: Type.Object({
          ...PagingQuery.properties,
          hasStoreRelation: Type.Optional(
            Type.Boolean({
              description: 'true: only those in a store; false: only those in none.',
            }),
          ),
        }),
        response: { 200: PhysicalDeviceList },
      },
    },
    async (request) => {
      const { skip, take, hasStoreRelation } = request.query;
      return physicalDevices.list(request.tenant.id, { skip, take }, hasStoreRelation);
    },
  );
  app.get(
    `${BASE}/:physicalDeviceId`,
    {
      schema: {
        tags,
        operationId: 'getPhysicalDevice',
        summary: 'Fetch a physical device',
        description: 'With its store and its ETag. 404 for an unknown DeviceId.',
        params: PhysicalDeviceParams,
        response: { 200: withHeaders(PhysicalDevice, ETAG) },
      },
    },
    async (request, reply) => {
      return withEtag(
        reply,
        await physicalDevices.get(request.tenant.id, request.params.physicalDeviceId),
      );
    },
  );
  app.put(
    `${BASE}/:physicalDeviceId`,
    {
      schema: {
        tags,
        operationId: 'updatePhysicalDevice',
        summary: 'Update a physical device: description and store (null: none)',
        description:
          "The body's DeviceId must be the path's (400 IdMismatch). Moving the device to " +
          'another store applies to its identity tokens at once. Answers the device with its ' +
          `new ETag. ${IF_MATCH_NOTE}`,
        params: PhysicalDeviceParams,
        headers: IfMatchHeaders,
        body: PhysicalDeviceBody,
        response: { 200: withHeaders(PhysicalDevice, ETAG), ...stale },
      },
    },
    async (request, reply) => {
      return withEtag(
        reply,
        await physicalDevices.update(
          request.tenant.id,
          request.params.physicalDeviceId,
          request.body,
          ifMatch(request),
        ),
      );
    },
  );
  app.delete(
    `${BASE}/:physicalDeviceId`,
    {
      schema: {
        tags,
        operationId: 'deletePhysicalDevice',
        summary: 'Delete a physical device and its logical devices',
        description: `Its identity tokens are refused (401) from then on. Answers 204. ${IF_MATCH_NOTE}`,
        params: PhysicalDeviceParams,
        headers: IfMatchHeaders,
        response: { ...noContent, ...stale },
      },
    },
    async (request, reply) => {
      await physicalDevices.delete(
        request.tenant.id,
        request.params.physicalDeviceId,
        ifMatch(request),
      );
      return reply.code(204).send(null);
    },
  );
};
