// /management/company/physicaldevices[/{physicalDeviceId}[/devices[/{deviceId}[/metadata[/{key}]]]]]
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../http/errors.ts';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { PagingQuery } from '../../http/paging.ts';
import {
  LogicalDevice,
  LogicalDeviceBody,
  LogicalDeviceList,
  LogicalDeviceParams,
  MetadataKeyParams,
  MetadataList,
  MetadataPair,
  PhysicalDevice,
  PhysicalDeviceBody,
  PhysicalDeviceList,
  PhysicalDeviceParams,
} from './company-schemas.ts';
import type { LogicalDeviceService } from './logical-device-service.ts';
import type { PhysicalDeviceService } from './physical-device-service.ts';

export const physicalDevicesTag: OpenApiTag = {
  name: 'Company: physical devices',
  description:
    "The tenant's devices (a kiosk, a tablet), each in a store or in none, with the logical " +
    'devices registered to each and their metadata. Identity tokens are bound to a physical device.',
};
const tags = [physicalDevicesTag.name];
const BASE = '/management/company/physicaldevices';
const noContent = { 204: Type.Null() };
const conflict = { 409: { $ref: 'ErrorBody#' } };
const stale = { 412: { $ref: 'ErrorBody#' } };
const path = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join('/');

export interface PhysicalDeviceRoutesOptions {
  physicalDevices: PhysicalDeviceService;
  logicalDevices: LogicalDeviceService;
}

export const physicalDeviceRoutes: FastifyPluginAsync<PhysicalDeviceRoutesOptions> = async (
  instance,
  { physicalDevices, logicalDevices },
) => {
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
        response: { 201: PhysicalDevice, ...conflict },
      },
    },
    async (request, reply) => {
      const { value, version } = await physicalDevices.create(request.tenant.id, request.body);
      setEtag(reply, version);
      return reply.code(201).header('Location', path(value.DeviceId)).send(value);
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
        response: { 200: PhysicalDevice },
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
        response: { 200: PhysicalDevice, ...stale },
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

  // Logical devices of one physical device.
  const DEVICES = `${BASE}/:physicalDeviceId/devices`;
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
        response: { 201: LogicalDevice, ...conflict },
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
        .header('Location', path(physicalDeviceId, 'devices', value.DeviceId))
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
        response: { 200: LogicalDevice },
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
        response: { 200: LogicalDevice, ...stale },
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

  // Metadata of one logical device.
  const METADATA = `${DEVICES}/:deviceId/metadata`;
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
        .header('Location', path(physicalDeviceId, 'devices', deviceId, 'metadata', pair.Key))
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
