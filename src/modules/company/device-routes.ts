// Device-facing routes (public scope, `{"Data": …}`): a device registers, changes and removes
// the logical devices of its own physical device (named by its identity token's `dev`), and
// lists the logical devices of its store or of the store nearest to a location.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IF_MATCH_NOTE, IfMatchHeaders, ifMatch, setEtag } from '../../http/etag.ts';
import { sendJsonText } from '../../http/json-text.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { DataEnvelope, inDataEnvelope } from '../../http/paging.ts';
import {
  deviceGone,
  deviceNotInStore,
  identityTokenRequired,
  invalidLocation,
  metadataFilterIncomplete,
  noStoreInRange,
} from './company-errors.ts';
import {
  DeviceIdParams,
  LogicalDevice,
  LogicalDeviceBody,
  LogicalDeviceFilter,
  LogicalDevicePatch,
} from './company-schemas.ts';
import { MAX_DISTANCE_KM, parseLocation } from './geo.ts';
import type { LogicalDeviceService } from './logical-device-service.ts';
import type { PhysicalDeviceService } from './physical-device-service.ts';

export const deviceFacingTag: OpenApiTag = {
  name: 'Company: logical devices (device-facing)',
  description:
    'What an in-store device calls with a public-scope token (most with an identity token ' +
    'bound to its physical device): its logical devices, and those of its store or of the ' +
    'store nearest to a place. Answers are in a {"Data": …} envelope.',
};
const tags = [deviceFacingTag.name];
const DeviceData = DataEnvelope(LogicalDevice, 'LogicalDeviceData');
const DeviceListData = DataEnvelope(Type.Array(LogicalDevice), 'LogicalDeviceListData');
const identityNote = 'Needs an identity token (403 IdentityTokenRequired otherwise).';

export interface DeviceRoutesOptions {
  physicalDevices: PhysicalDeviceService;
  logicalDevices: LogicalDeviceService;
}

export const deviceRoutes: FastifyPluginAsync<DeviceRoutesOptions> = async (
  instance,
  { physicalDevices, logicalDevices },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  /** The caller's physical device as it is now (moved or deleted devices count at once). */
  const caller = async (request: FastifyRequest) => {
    const id = request.principal.deviceId;
    if (id === undefined) throw identityTokenRequired();
    const device = await physicalDevices.find(request.tenant.id, id);
    if (!device || device.generation !== request.principal.deviceGeneration) throw deviceGone();
    return { id, storeId: device.storeId };
  };
  const checkFilter = (filter: LogicalDeviceFilter) => {
    if ((filter.metadataKey === undefined) !== (filter.metadataValue === undefined))
      throw metadataFilterIncomplete();
  };

  app.post(
    '/company/logicaldevices',
    {
      schema: {
        tags,
        operationId: 'registerOwnLogicalDevice',
        summary: "Register a logical device to the caller's physical device",
        description:
          '409 DuplicateDeviceId when the DeviceId exists in the tenant; ExpirationDate, when ' +
          'given, in the future (400 ExpirationDateInPast). Answers 201 with the device, its ' +
          `ETag and its Location. ${identityNote}`,
        body: LogicalDeviceBody,
        response: { 201: DeviceData, 409: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      const device = await caller(request);
      const { value, version } = await logicalDevices.create(
        request.tenant.id,
        device.id,
        request.body,
      );
      setEtag(reply, version);
      return reply
        .code(201)
        .header('Location', `/company/logicaldevices/${encodeURIComponent(value.DeviceId)}`)
        .send(inDataEnvelope(value));
    },
  );
  app.get(
    '/company/logicaldevices/:deviceId',
    {
      schema: {
        tags,
        operationId: 'getOwnLogicalDevice',
        summary: "Fetch one of the caller's logical devices",
        description: `With its ETag; a logical device of another physical device is 404. ${identityNote}`,
        params: DeviceIdParams,
        response: { 200: DeviceData },
      },
    },
    async (request, reply) => {
      const device = await caller(request);
      const { value, version } = await logicalDevices.get(
        request.tenant.id,
        device.id,
        request.params.deviceId,
      );
      setEtag(reply, version);
      return inDataEnvelope(value);
    },
  );
  app.patch(
    '/company/logicaldevices/:deviceId',
    {
      schema: {
        tags,
        operationId: 'patchOwnLogicalDevice',
        summary: "Update one of the caller's logical devices (only the fields sent)",
        description:
          'Null clears DeviceTypeId or ExpirationDate; Metadata replaces the list. Answers the ' +
          `device with its new ETag. ${IF_MATCH_NOTE} ${identityNote}`,
        params: DeviceIdParams,
        headers: IfMatchHeaders,
        body: LogicalDevicePatch,
        response: { 200: DeviceData, 412: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      const device = await caller(request);
      const { value, version } = await logicalDevices.patch(
        request.tenant.id,
        device.id,
        request.params.deviceId,
        request.body,
        ifMatch(request),
      );
      setEtag(reply, version);
      return inDataEnvelope(value);
    },
  );
  app.delete(
    '/company/logicaldevices/:deviceId',
    {
      schema: {
        tags,
        operationId: 'unregisterOwnLogicalDevice',
        summary: "Unregister one of the caller's logical devices",
        description: `Answers 204. ${IF_MATCH_NOTE} ${identityNote}`,
        params: DeviceIdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null(), 412: { $ref: 'ErrorBody#' } },
      },
    },
    async (request, reply) => {
      const device = await caller(request);
      await logicalDevices.delete(
        request.tenant.id,
        device.id,
        request.params.deviceId,
        ifMatch(request),
      );
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/company/stores/logicaldevices',
    {
      schema: {
        tags,
        operationId: 'listStoreLogicalDevices',
        summary: "List the unexpired logical devices of the caller's store",
        description:
          'Those of every physical device in the store, in DeviceId order (not paged). ' +
          'metadataKey and metadataValue go together (400 MetadataFilterIncomplete) and match a ' +
          'pair exactly; Metadata is answered only with includeMetadata=true. 404 ' +
          `PhysicalDeviceHasNoStore when the caller's device is in no store. ${identityNote}`,
        querystring: LogicalDeviceFilter,
        response: { 200: DeviceListData },
      },
    },
    async (request) => {
      checkFilter(request.query);
      const device = await caller(request);
      if (device.storeId === null) throw deviceNotInStore();
      return inDataEnvelope(
        await logicalDevices.listOfStore(request.tenant.id, device.storeId, request.query),
      );
    },
  );
  app.get(
    '/company/stores/:location/logicaldevices',
    {
      schema: {
        tags,
        operationId: 'listNearestStoreLogicalDevices',
        summary: 'List the unexpired logical devices of the store nearest to a location',
        description:
          'location is `{longitude};{latitude}` with decimal points (400 InvalidLocation ' +
          'otherwise). The nearest store by great-circle distance (WGS84 mean radius), lowest ' +
          'Id on a tie, within searchDistance km; 404 NoStoreInRange when there is none. ' +
          'Filters as for GET /company/stores/logicaldevices. Any public-scope token.',
        params: Type.Object({ location: Type.String({ description: '{longitude};{latitude}' }) }),
        querystring: Type.Object({
          ...LogicalDeviceFilter.properties,
          searchDistance: Type.Number({
            minimum: 0,
            maximum: Math.round(MAX_DISTANCE_KM * 1000) / 1000,
            default: 5,
            description: 'Kilometres (default 5).',
          }),
        }),
        response: { 200: DeviceListData },
      },
    },
    async (request, reply) => {
      const point = parseLocation(request.params.location);
      if (!point) throw invalidLocation(request.params.location);
      const { searchDistance, ...filter } = request.query;
      checkFilter(filter);
      const json = await logicalDevices.nearestStoreJson(
        request.tenant.id,
        point,
        searchDistance,
        filter,
      );
      if (json === undefined) throw noStoreInRange(searchDistance);
      return sendJsonText(reply, json);
    },
  );
};
