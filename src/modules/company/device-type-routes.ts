// /management/company/devicetypes[/{id}], and the public list /company/devicetypes.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
import { DataEnvelope, PagingQuery, inDataEnvelope } from '../../http/paging.ts';
import { DeviceType, DeviceTypeBody, DeviceTypeList, IdParams } from './company-schemas.ts';
import type { DeviceTypeService } from './device-type-service.ts';

const tags = ['Company: device types'];
const BASE = '/management/company/devicetypes';

export const deviceTypeRoutes: FastifyPluginAsync<{ deviceTypes: DeviceTypeService }> = async (
  instance,
  { deviceTypes },
) => {
  registerCrudRoutes(instance, {
    tags,
    path: BASE,
    params: IdParams,
    resource: DeviceType,
    etagOf: (updatedAt: Date) => updatedAt,
    service: deviceTypes,
    create: { summary: 'Create a device type', body: DeviceTypeBody },
    get: { summary: 'Fetch a device type' },
    put: { summary: 'Update a device type', body: DeviceTypeBody },
    delete: { summary: 'Delete a device type (409 while logical devices have it)', errors: [409] },
    list: { summary: 'List device types', response: DeviceTypeList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
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
