// The change history of stores, physical devices and logical devices at their own paths
// (docs/api.md, "Change history").
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { notFound } from '../../domain/domain-error.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import type { CompanyServices } from './company-module.ts';
import { IdParams, LogicalDeviceParams, PhysicalDeviceParams } from './company-schemas.ts';
import { PHYSICAL_DEVICES_PATH } from './physical-device-routes.ts';

export const companyHistoryRoutes: FastifyPluginAsync<{
  services: CompanyServices;
  database: RawSql;
}> = async (app, { services, database }) => {
  const { stores, physicalDevices, logicalDevices } = services;
  registerHistoryRoutes(app, {
    url: '/management/company/store/:id',
    resource: 'store',
    name: 'Store',
    params: IdParams,
    resourceId: (params) => String(params.id),
    exists: (tenantId, params) => existsBy(() => stores.get(tenantId, params.id as number)),
    notFound: (params) => notFound(`Store ${String(params.id)}`),
    database,
  });
  registerHistoryRoutes(app, {
    url: `${PHYSICAL_DEVICES_PATH}/:physicalDeviceId`,
    resource: 'physical_device',
    name: 'PhysicalDevice',
    params: PhysicalDeviceParams,
    resourceId: (params) => params.physicalDeviceId as string,
    exists: (tenantId, params) =>
      existsBy(() => physicalDevices.get(tenantId, params.physicalDeviceId as string)),
    notFound: (params) => notFound(`Physical device "${String(params.physicalDeviceId)}"`),
    database,
  });
  // A logical device's id is unique in the tenant: its entries are those of that id.
  registerHistoryRoutes(app, {
    url: `${PHYSICAL_DEVICES_PATH}/:physicalDeviceId/devices/:deviceId`,
    resource: 'logical_device',
    name: 'LogicalDevice',
    params: LogicalDeviceParams,
    resourceId: (params) => params.deviceId as string,
    exists: (tenantId, params) =>
      existsBy(() =>
        logicalDevices.get(tenantId, params.physicalDeviceId as string, params.deviceId as string),
      ),
    notFound: (params) =>
      notFound(
        `Logical device "${String(params.deviceId)}" of physical device "${String(params.physicalDeviceId)}"`,
      ),
    database,
  });
};
