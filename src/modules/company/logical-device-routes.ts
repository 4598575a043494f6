// /management/company/physicaldevices/{physicalDeviceId}/devices[/{deviceId}]: the logical devices
// registered to a physical device (their metadata: logical-device-metadata-routes.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
import { PagingQuery } from '../../http/paging.ts';
import {
  LogicalDevice,
  LogicalDeviceBody,
  LogicalDeviceList,
  LogicalDeviceParams,
  PhysicalDeviceParams,
} from './company-schemas.ts';
import type { LogicalDeviceService } from './logical-device-service.ts';
import {
  PHYSICAL_DEVICES_PATH,
  physicalDevicePath,
  conflict,
  noContent,
  stale,
  tags,
} from './physical-device-routes.ts';

export const logicalDeviceRoutes: FastifyPluginAsync<{
  logicalDevices: LogicalDeviceService;
}> = async (instance, { logicalDevices }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  const DEVICES = `${PHYSICAL_DEVICES_PATH}/:physicalDeviceId/devices`;
  app.post(
    DEVICES,
    {
      schema: {
        tags,
        operationId: 'createLogicalDevice',
        summary: 'Register a logical device to this physical device',
        description:
          'DeviceId is unique in the tenant, whatever physical device has it (409 ' +
          'DuplicateDeviceId); DeviceTypeId an existing type or null; ExpirationDate in the ' +
          'future. 404 for an unknown physical device. Answers 201 with the logical device, its ' +
          'ETag and its Location.',
        params: PhysicalDeviceParams,
        body: LogicalDeviceBody,
        response: { 201: withHeaders(LogicalDevice, ETAG), ...conflict },
      },
    },
    async (request, reply) => {
      const { physicalDeviceId } = request.params;
      const { value, version } = await logicalDevices.create(
        request.tenant.id,
        physicalDeviceId,
        request.body,
      );
      setEtag(reply, version);
      return reply
        .code(201)
        .header('Location', physicalDevicePath(physicalDeviceId, 'devices', value.DeviceId))
        .send(value);
    },
  );
  app.get(
    DEVICES,
    {
      schema: {
        tags,
        operationId: 'listLogicalDevices',
        summary: 'List the logical devices of this physical device (expired ones too)',
        description:
          '404 for an unknown physical device. One page at a time: skip (default 0) and take ' +
          '(1 to 1000, default 20); TotalCount counts them all.',
        params: PhysicalDeviceParams,
        querystring: PagingQuery,
        response: { 200: LogicalDeviceList },
      },
    },
    async (request) =>
      logicalDevices.listOfPhysical(
        request.tenant.id,
        request.params.physicalDeviceId,
        request.query,
      ),
  );
  app.get(
    `${DEVICES}/:deviceId`,
    {
      schema: {
        tags,
        operationId: 'getLogicalDevice',
        summary: 'Fetch a logical device',
        description: 'With its metadata and its ETag, expired or not.',
        params: LogicalDeviceParams,
        response: { 200: withHeaders(LogicalDevice, ETAG) },
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId } = request.params;
      return withEtag(
        reply,
        await logicalDevices.get(request.tenant.id, physicalDeviceId, deviceId),
      );
    },
  );
  app.put(
    `${DEVICES}/:deviceId`,
    {
      schema: {
        tags,
        operationId: 'updateLogicalDevice',
        summary: 'Replace a logical device (fields left out are cleared; Metadata replaced)',
        description: `Answers the logical device with its new ETag. ${IF_MATCH_NOTE}`,
        params: LogicalDeviceParams,
        headers: IfMatchHeaders,
        body: LogicalDeviceBody,
        response: { 200: withHeaders(LogicalDevice, ETAG), ...stale },
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId } = request.params;
      const body = request.body;
      return withEtag(
        reply,
        await logicalDevices.patch(
          request.tenant.id,
          physicalDeviceId,
          deviceId,
          {
            DeviceId: body.DeviceId,
            Description: body.Description,
            DeviceTypeId: body.DeviceTypeId ?? null,
            ExpirationDate: body.ExpirationDate ?? null,
            Metadata: body.Metadata ?? [],
          },
          ifMatch(request),
        ),
      );
    },
  );
  app.delete(
    `${DEVICES}/:deviceId`,
    {
      schema: {
        tags,
        operationId: 'deleteLogicalDevice',
        summary: 'Delete a logical device',
        description: `Answers 204. ${IF_MATCH_NOTE}`,
        params: LogicalDeviceParams,
        headers: IfMatchHeaders,
        response: { ...noContent, ...stale },
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId } = request.params;
      await logicalDevices.delete(request.tenant.id, physicalDeviceId, deviceId, ifMatch(request));
      return reply.code(204).send(null);
    },
  );
};
