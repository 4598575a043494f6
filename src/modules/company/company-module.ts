// The company module (contract §5.5): stores, device types, physical devices and the logical
// devices registered to them, managed under /management/company and used by devices (with
// identity tokens) under /company.
import type { AppModule, ModuleContext } from '../../module.ts';
import { deviceFacingTag, deviceRoutes } from './device-routes.ts';
import { deviceTypeRoutes, deviceTypesTag } from './device-type-routes.ts';
import { DeviceTypeService } from './device-type-service.ts';
import { logicalDeviceMetadataRoutes } from './logical-device-metadata-routes.ts';
import { logicalDeviceRoutes } from './logical-device-routes.ts';
import { LogicalDeviceService } from './logical-device-service.ts';
import { physicalDeviceRoutes, physicalDevicesTag } from './physical-device-routes.ts';
import { PhysicalDeviceService } from './physical-device-service.ts';
import { storeRoutes, storesTag } from './store-routes.ts';
import { StoreService } from './store-service.ts';
import { companyHistoryRoutes } from './company-history-routes.ts';
import { companyErrorCodes } from './company-errors.ts';

export interface CompanyServices {
  stores: StoreService;
  deviceTypes: DeviceTypeService;
  /** `find` backs identity tokens; `stampOf` describes a device for analytics records. */
  physicalDevices: PhysicalDeviceService;
  logicalDevices: LogicalDeviceService;
}

export function createCompanyModule(context: ModuleContext): AppModule<CompanyServices> {
  const db = context.database;
  const services: CompanyServices = {
    stores: new StoreService(db),
    deviceTypes: new DeviceTypeService(db),
    physicalDevices: new PhysicalDeviceService(db),
    logicalDevices: new LogicalDeviceService(db),
  };
  return {
    name: 'company',
    errorCodes: companyErrorCodes,
    permissions: { area: 'company' },
    openApiTags: [storesTag, deviceTypesTag, physicalDevicesTag, deviceFacingTag],
    services,
    routes: async (app) => {
      await app.register(storeRoutes, { stores: services.stores });
      await app.register(deviceTypeRoutes, { deviceTypes: services.deviceTypes });
      await app.register(physicalDeviceRoutes, { physicalDevices: services.physicalDevices });
      await app.register(logicalDeviceRoutes, { logicalDevices: services.logicalDevices });
      await app.register(logicalDeviceMetadataRoutes, { logicalDevices: services.logicalDevices });
      await app.register(deviceRoutes, services);
      await app.register(companyHistoryRoutes, { services, database: db });
    },
  };
}
