// /management/company/physicaldevices[/{physicalDeviceId}[/devices[/{deviceId}[/metadata[/{key}]]]]]
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../http/errors.ts';
import { ifMatch, setEtag, withEtag } from '../../http/etag.ts';
import { ETAG, withHeaders } from '../../http/response-headers.ts';
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

const tags = ['Company: physical devices'];
const BASE = '/management/company/physicaldevices';
const noContent = { 204: Type.Null() };
const conflict = { 409: { $ref: 'ErrorBody#' } };
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
        summary: 'Create a physical device (DeviceId chosen by the client)',
        body: PhysicalDeviceBody,
        response: { 201: withHeaders(PhysicalDevice, ETAG), ...conflict },
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
        summary: 'List physical devices',
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
        summary: 'Fetch a physical device',
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
        summary: 'Update a physical device: description and store (null: none)',
        description: 'Moving the device to another store applies to its identity tokens at once.',
        params: PhysicalDeviceParams,
        body: PhysicalDeviceBody,
        response: { 200: withHeaders(PhysicalDevice, ETAG) },
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
        summary: 'Delete a physical device and its logical devices',
        description: 'Its identity tokens are refused (401) from then on.',
        params: PhysicalDeviceParams,
        response: noContent,
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
        summary: 'Register a logical device to this physical device',
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
        .header('Location', path(physicalDeviceId, 'devices', value.DeviceId))
        .send(value);
    },
  );
  app.get(
    DEVICES,
    {
      schema: {
        tags,
        summary: 'List the logical devices of this physical device (expired ones too)',
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
        summary: 'Fetch a logical device',
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
        summary: 'Replace a logical device (fields left out are cleared; Metadata replaced)',
        params: LogicalDeviceParams,
        body: LogicalDeviceBody,
        response: { 200: withHeaders(LogicalDevice, ETAG) },
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
        summary: 'Delete a logical device',
        params: LogicalDeviceParams,
        response: noContent,
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
        summary: 'List the metadata of a logical device',
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
        summary: 'Add a metadata pair (409 when the key exists)',
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
        summary: 'Change the value of a metadata key',
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
        summary: 'Remove a metadata key',
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
        summary: 'Remove every metadata key',
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
