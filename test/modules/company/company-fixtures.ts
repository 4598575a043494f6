// Shared builders for the company tests: stores, device types, physical devices, apps and
// identity tokens made through the API the way a client would.
import { randomUUID } from 'node:crypto';
import { expectStatus } from '../../support/expectations.ts';
import { basicAuth, type TestApi, type TestTenant } from '../../support/test-api.ts';

export const MANAGEMENT = '/management/company';

export interface StoreJson {
  Id: number;
  Name: string;
  Description: string | null;
  Address: string | null;
  Location: { Longitude: number; Latitude: number };
}
export interface PhysicalDeviceJson {
  DeviceId: string;
  Description: string | null;
  StoreId: number | null;
  StoreName: string | null;
}
export interface LogicalDeviceJson {
  DeviceId: string;
  Description: string;
  DeviceTypeId: number | null;
  DeviceTypeDescription: string | null;
  ExpirationDate: string | null;
  Metadata?: { Key: string; Value: string }[];
}
export interface Page<T> {
  Results: T[];
  TotalCount: number;
}

export const uniqueId = (prefix = 'dev') => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function createStore(
  api: TestApi,
  tenant: TestTenant,
  longitude = 29,
  latitude = 41,
  name = uniqueId('Store'),
): Promise<StoreJson> {
  const response = await api.call({
    method: 'POST',
    url: `${MANAGEMENT}/store`,
    tenant,
    body: { Name: name, Location: { Longitude: longitude, Latitude: latitude } },
  });
  expectStatus(response, 201);
  return response.json<StoreJson>();
}

export async function createDeviceType(
  api: TestApi,
  tenant: TestTenant,
  description = uniqueId('Kiosk'),
): Promise<{ Id: number; Description: string }> {
  const response = await api.call({
    method: 'POST',
    url: `${MANAGEMENT}/devicetypes`,
    tenant,
    body: { Description: description },
  });
  expectStatus(response, 201);
  return response.json();
}

export async function createPhysicalDevice(
  api: TestApi,
  tenant: TestTenant,
  storeId: number | null,
  deviceId = uniqueId('pd'),
): Promise<PhysicalDeviceJson> {
  const response = await api.call({
    method: 'POST',
    url: `${MANAGEMENT}/physicaldevices`,
    tenant,
    body: { DeviceId: deviceId, Description: 'A screen', StoreId: storeId },
  });
  expectStatus(response, 201);
  return response.json<PhysicalDeviceJson>();
}

export async function createLogicalDevice(
  api: TestApi,
  tenant: TestTenant,
  physicalDeviceId: string,
  body: Record<string, unknown> = {},
): Promise<LogicalDeviceJson> {
  const response = await api.call({
    method: 'POST',
    url: `${MANAGEMENT}/physicaldevices/${physicalDeviceId}/devices`,
    tenant,
    body: { DeviceId: uniqueId('ld'), Description: 'An app', ...body },
  });
  expectStatus(response, 201);
  return response.json<LogicalDeviceJson>();
}

export interface TestApp {
  id: string;
  secret: string;
}

export async function createApp(api: TestApi, tenant: TestTenant, type: number): Promise<TestApp> {
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: uniqueId('App'), ApplicationTypeId: type },
  });
  expectStatus(response, 201);
  const app = response.json<{ ApplicationId: string; ApplicationSecret: string }>();
  return { id: app.ApplicationId, secret: app.ApplicationSecret };
}

/** POST /oauth/token with physical_device_id (the raw response). */
export function requestIdentityToken(
  api: TestApi,
  tenant: TestTenant,
  app: TestApp,
  physicalDeviceId: string,
) {
  return api.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      host: tenant.host,
      authorization: basicAuth(app.id, app.secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      physical_device_id: physicalDeviceId,
    }).toString(),
  });
}

export async function identityToken(
  api: TestApi,
  tenant: TestTenant,
  app: TestApp,
  physicalDeviceId: string,
): Promise<string> {
  const response = await requestIdentityToken(api, tenant, app, physicalDeviceId);
  expectStatus(response, 200);
  return response.json<{ access_token: string }>().access_token;
}

/** A device's view: a Device (4) app, a physical device in `storeId`, and its identity token. */
export async function deviceInStore(
  api: TestApi,
  tenant: TestTenant,
  storeId: number | null,
  app?: TestApp,
): Promise<{ app: TestApp; physicalDeviceId: string; token: string }> {
  const deviceApp = app ?? (await createApp(api, tenant, 4));
  const physical = await createPhysicalDevice(api, tenant, storeId);
  return {
    app: deviceApp,
    physicalDeviceId: physical.DeviceId,
    token: await identityToken(api, tenant, deviceApp, physical.DeviceId),
  };
}

/** An ISO date `days` from now. */
export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
