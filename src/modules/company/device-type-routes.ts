// /management/company/devicetypes[/{id}], and the public list /company/devicetypes.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
import { DataEnvelope, PagingQuery, inDataEnvelope } from '../../http/paging.ts';
import { DeviceType, DeviceTypeBody, DeviceTypeList, IdParams } from './company-schemas.ts';
import type { DeviceTypeService } from './device-type-service.ts';

export const deviceTypesTag: OpenApiTag = {
  name: 'Company: device types',
  description: 'Kinds of logical device (kiosk, shelf screen…) that devices can have.',
};
const tags = [deviceTypesTag.name];
const BASE = '/management/company/devicetypes';

export const deviceTypeRoutes: FastifyPluginAsync<{ deviceTypes: DeviceTypeService }> = async (
  instance,
  { deviceTypes },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'DeviceType', many: 'DeviceTypes' },
    path: BASE,
    params: IdParams,
    resource: DeviceType,
    etagOf: (updatedAt: Date) => updatedAt,
    service: deviceTypes,
    create: { summary: 'Create a device type', body: DeviceTypeBody },
    get: { summary: 'Fetch a device type' },
    put: { summary: 'Update a device type', body: DeviceTypeBody },
    delete: {
      summary: 'Delete a device type (409 while logical devices have it)',
      description: '409 DeviceTypeInUse while a logical device has the type.',
      errors: [409],
    },
    list: { summary: 'List device types', response: DeviceTypeList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/company/devicetypes',
    {
      schema: {
        tags,
        operationId: 'listPublicDeviceTypes',
        summary: 'List device types (device-facing)',
        description:
          'The device types for devices (public scope), in the {"Data": …} envelope: one page ' +
          'at a time, skip (default 0) and take (1 to 1000, default 20).',
        querystring: PagingQuery,
        response: { 200: DataEnvelope(DeviceTypeList, 'DeviceTypeListData') },
      },
    },
    async (request) => inDataEnvelope(await deviceTypes.list(request.tenant.id, request.query)),
  );
};
