// /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata[/{key}]: the
// key and value pairs of a logical device.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest } from '../../http/errors.ts';
import {
  LogicalDeviceParams,
  MetadataKeyParams,
  MetadataList,
  MetadataPair,
} from './company-schemas.ts';
import type { LogicalDeviceService } from './logical-device-service.ts';
import {
  PHYSICAL_DEVICES_PATH,
  physicalDevicePath,
  conflict,
  noContent,
  tags,
} from './physical-device-routes.ts';

export const logicalDeviceMetadataRoutes: FastifyPluginAsync<{
  logicalDevices: LogicalDeviceService;
}> = async (instance, { logicalDevices }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  const METADATA = `${PHYSICAL_DEVICES_PATH}/:physicalDeviceId/devices/:deviceId/metadata`;
  app.get(
    METADATA,
    {
      schema: {
        tags,
        operationId: 'listLogicalDeviceMetadata',
        summary: 'List the metadata of a logical device',
        description: 'Its key and value pairs (not paged).',
        params: LogicalDeviceParams,
        response: { 200: MetadataList },
      },
    },
    async (request) => {
      const { physicalDeviceId, deviceId } = request.params;
      return logicalDevices.listMetadata(request.tenant.id, physicalDeviceId, deviceId);
    },
  );
  app.post(
    METADATA,
    {
      schema: {
        tags,
        operationId: 'addLogicalDeviceMetadata',
        summary: 'Add a metadata pair (409 when the key exists)',
        description:
          '409 DuplicateMetadataKey when the device has the key. Answers 201 with the pair and ' +
          'its Location.',
        params: LogicalDeviceParams,
        body: MetadataPair,
        response: { 201: MetadataPair, ...conflict },
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId } = request.params;
      const pair = await logicalDevices.addMetadata(
        request.tenant.id,
        physicalDeviceId,
        deviceId,
        request.body,
      );
      return reply
        .code(201)
        .header(
          'Location',
          physicalDevicePath(physicalDeviceId, 'devices', deviceId, 'metadata', pair.Key),
        )
        .send(pair);
    },
  );
  app.put(
    `${METADATA}/:key`,
    {
      schema: {
        tags,
        operationId: 'updateLogicalDeviceMetadata',
        summary: 'Change the value of a metadata key',
        description:
          "The body's Key must be the path's (400 IdMismatch); 404 for a key the device does " +
          'not have. Answers the pair.',
        params: MetadataKeyParams,
        body: MetadataPair,
        response: { 200: MetadataPair },
      },
    },
    async (request) => {
      const { physicalDeviceId, deviceId, key } = request.params;
      if (request.body.Key !== key) {
        throw badRequest(
          'IdMismatch',
          `The body's Key "${request.body.Key}" differs from the path's "${key}".`,
        );
      }
      return logicalDevices.updateMetadata(
        request.tenant.id,
        physicalDeviceId,
        deviceId,
        key,
        request.body.Value,
      );
    },
  );
  app.delete(
    `${METADATA}/:key`,
    {
      schema: {
        tags,
        operationId: 'deleteLogicalDeviceMetadataKey',
        summary: 'Remove a metadata key',
        description: 'Answers 204; 404 for a key the device does not have.',
        params: MetadataKeyParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId, key } = request.params;
      await logicalDevices.deleteMetadata(request.tenant.id, physicalDeviceId, deviceId, key);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    METADATA,
    {
      schema: {
        tags,
        operationId: 'deleteLogicalDeviceMetadata',
        summary: 'Remove every metadata key',
        description: 'Answers 204, also when the device had none.',
        params: LogicalDeviceParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      const { physicalDeviceId, deviceId } = request.params;
      await logicalDevices.deleteMetadata(request.tenant.id, physicalDeviceId, deviceId, undefined);
      return reply.code(204).send(null);
    },
  );
};
