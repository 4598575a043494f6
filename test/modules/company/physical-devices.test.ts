// Device types and physical devices (contract §5.5): CRUD, the hasStoreRelation filter,
// duplicates, unknown stores, the 409 for a type in use, ETag/If-Match and tenancy.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  MANAGEMENT,
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
  uniqueId,
  type Page,
  type PhysicalDeviceJson,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const TYPES = `${MANAGEMENT}/devicetypes`;
const DEVICES = `${MANAGEMENT}/physicaldevices`;

describe('device types', () => {
  it('creates (201, Location), fetches (ETag), updates and lists device types', async () => {
    const tenant = await api.createTenant('types');
    const created = await api.call({
      method: 'POST',
      url: TYPES,
      tenant,
      body: { Description: 'Kiosk' },
    });
    expectStatus(created, 201);
    const type = created.json<{ Id: number; Description: string }>();
    expect(type).toEqual({ Id: expect.any(Number) as number, Description: 'Kiosk' });
    expect(created.headers.location).toBe(`${TYPES}/${type.Id}`);
    const fetched = await api.call({ url: `${TYPES}/${type.Id}`, tenant });
    expect(fetched.json()).toEqual(type);
    const stale = await api.call({
      method: 'PUT',
      url: `${TYPES}/${type.Id}`,
      tenant,
      headers: { 'if-match': '"old"' },
      body: { Description: 'InStore' },
    });
    expectError(stale, 412);
    const updated = await api.call({
      method: 'PUT',
      url: `${TYPES}/${type.Id}`,
      tenant,
      headers: { 'if-match': fetched.headers.etag as string },
      body: { Id: type.Id, Description: 'InStore' },
    });
    expectStatus(updated, 200);
    expect(updated.json()).toEqual({ Id: type.Id, Description: 'InStore' });
    const list = await api.call({ url: `${TYPES}?take=10`, tenant });
    expect(list.json()).toEqual({
      Results: [{ Id: type.Id, Description: 'InStore' }],
      TotalCount: 1,
    });
    // The device-facing list wraps the page in Data.
    const publicList = await api.call({ url: '/company/devicetypes', tenant });
    expect(publicList.json()).toEqual({ Data: list.json<unknown>() });
  });

  it('refuses bad bodies (400) and unknown ids (404)', async () => {
    expectError(await api.call({ method: 'POST', url: TYPES, tenant: acme, body: {} }), 400);
    expectError(
      await api.call({
        method: 'POST',
        url: TYPES,
        tenant: acme,
        body: { Description: 'x', Y: 1 },
      }),
      400,
    );
    expectError(await api.call({ url: `${TYPES}/999999`, tenant: acme }), 404);
    expectError(
      await api.call({
        method: 'PUT',
        url: `${TYPES}/999999`,
        tenant: acme,
        body: { Description: 'x' },
      }),
      404,
    );
  });

  it('deletes an unused type (204) and refuses one logical devices use (409)', async () => {
    const unused = await createDeviceType(api, acme);
    expectStatus(
      await api.call({ method: 'DELETE', url: `${TYPES}/${unused.Id}`, tenant: acme }),
      204,
    );
    expectError(
      await api.call({ method: 'DELETE', url: `${TYPES}/${unused.Id}`, tenant: acme }),
      404,
    );
    const used = await createDeviceType(api, acme);
    const physical = await createPhysicalDevice(api, acme, null);
    await createLogicalDevice(api, acme, physical.DeviceId, { DeviceTypeId: used.Id });
    expectError(
      await api.call({ method: 'DELETE', url: `${TYPES}/${used.Id}`, tenant: acme }),
      409,
      'DeviceTypeInUse',
    );
  });

  it("keeps tenants apart: another tenant's type is 404, a foreign token 401", async () => {
    const type = await createDeviceType(api, acme);
    expectError(await api.call({ url: `${TYPES}/${type.Id}`, tenant: globex }), 404);
    expectError(await api.call({ url: TYPES, tenant: globex, token: acme.token }), 401);
  });
});

describe('POST /management/company/physicaldevices', () => {
  it('creates a device in a store: 201 with its store name', async () => {
    const store = await createStore(api, acme, 1, 2, 'Main street');
    const id = uniqueId('screen');
    const response = await api.call({
      method: 'POST',
      url: DEVICES,
      tenant: acme,
      body: { DeviceId: id, Description: 'Front screen', StoreId: store.Id },
    });
    expectStatus(response, 201);
    expect(response.json()).toEqual({
      DeviceId: id,
      Description: 'Front screen',
      StoreId: store.Id,
      StoreName: 'Main street',
    });
    expect(response.headers.location).toBe(`${DEVICES}/${id}`);
  });

  it('creates a device in no store', async () => {
    const device = await createPhysicalDevice(api, acme, null);
    expect(device).toMatchObject({ StoreId: null, StoreName: null });
  });

  it('refuses a DeviceId that exists with 409, and an unknown store with 400', async () => {
    const device = await createPhysicalDevice(api, acme, null);
    const again = await api.call({
      method: 'POST',
      url: DEVICES,
      tenant: acme,
      body: { DeviceId: device.DeviceId },
    });
    expectError(again, 409, 'DuplicatePhysicalDeviceId');
    const unknown = await api.call({
      method: 'POST',
      url: DEVICES,
      tenant: acme,
      body: { DeviceId: uniqueId(), StoreId: 999999 },
    });
    expectError(unknown, 400, 'UnknownStore');
  });

  it.each([
    ['no DeviceId', { Description: 'x' }],
    ['an empty DeviceId', { DeviceId: '' }],
    ['a DeviceId with a slash', { DeviceId: 'a/b' }],
    ['an unknown field', { DeviceId: 'x', Serial: 1 }],
    ['a zero StoreId', { DeviceId: 'x', StoreId: 0 }],
  ])('refuses %s with 400', async (_label, body) => {
    expectError(await api.call({ method: 'POST', url: DEVICES, tenant: acme, body }), 400);
  });

  it("refuses another tenant's store (400): stores are per tenant", async () => {
    const store = await createStore(api, acme);
    const response = await api.call({
      method: 'POST',
      url: DEVICES,
      tenant: globex,
      body: { DeviceId: uniqueId(), StoreId: store.Id },
    });
    expectError(response, 400, 'UnknownStore');
  });
});

describe('GET /management/company/physicaldevices', () => {
  it('pages the devices, filtered by hasStoreRelation', async () => {
    const tenant = await api.createTenant('fleet');
    const store = await createStore(api, tenant);
    const inStore = [
      await createPhysicalDevice(api, tenant, store.Id, 'a1'),
      await createPhysicalDevice(api, tenant, store.Id, 'a2'),
    ];
    const loose = await createPhysicalDevice(api, tenant, null, 'b1');
    const list = (query: string) =>
      api.call({ url: `${DEVICES}?${query}`, tenant }).then((r) => {
        expectStatus(r, 200);
        return r.json<Page<PhysicalDeviceJson>>();
      });
    expect(await list('')).toEqual({ Results: [...inStore, loose], TotalCount: 3 });
    expect(await list('hasStoreRelation=true')).toEqual({ Results: inStore, TotalCount: 2 });
    expect(await list('hasStoreRelation=false')).toEqual({ Results: [loose], TotalCount: 1 });
    expect(await list('skip=1&take=1')).toEqual({ Results: [inStore[1]], TotalCount: 3 });
    expectError(await api.call({ url: `${DEVICES}?hasStoreRelation=maybe`, tenant }), 400);
    const empty = await api.call({ url: DEVICES, tenant: globex });
    expect(empty.json<Page<PhysicalDeviceJson>>().Results.map((d) => d.DeviceId)).not.toContain(
      'a1',
    );
  });
});

describe('GET, PUT, DELETE /management/company/physicaldevices/{id}', () => {
  it('fetches with an ETag, moves the device between stores and out of them', async () => {
    const first = await createStore(api, acme, 0, 0, 'First');
    const second = await createStore(api, acme, 0, 1, 'Second');
    const device = await createPhysicalDevice(api, acme, first.Id);
    const fetched = await api.call({ url: `${DEVICES}/${device.DeviceId}`, tenant: acme });
    expectStatus(fetched, 200);
    expect(fetched.json()).toEqual(device);
    const moved = await api.call({
      method: 'PUT',
      url: `${DEVICES}/${device.DeviceId}`,
      tenant: acme,
      headers: { 'if-match': fetched.headers.etag as string },
      body: { DeviceId: device.DeviceId, Description: 'Moved', StoreId: second.Id },
    });
    expectStatus(moved, 200);
    expect(moved.json()).toEqual({
      DeviceId: device.DeviceId,
      Description: 'Moved',
      StoreId: second.Id,
      StoreName: 'Second',
    });
    const stale = await api.call({
      method: 'PUT',
      url: `${DEVICES}/${device.DeviceId}`,
      tenant: acme,
      headers: { 'if-match': fetched.headers.etag as string },
      body: { DeviceId: device.DeviceId },
    });
    expectError(stale, 412);
    const out = await api.call({
      method: 'PUT',
      url: `${DEVICES}/${device.DeviceId}`,
      tenant: acme,
      body: { DeviceId: device.DeviceId },
    });
    expect(out.json()).toMatchObject({ StoreId: null, StoreName: null, Description: null });
  });

  it('answers 400 for another DeviceId in the body or an unknown store, 404 unknown', async () => {
    const device = await createPhysicalDevice(api, acme, null);
    const put = (id: string, body: unknown) =>
      api.call({ method: 'PUT', url: `${DEVICES}/${id}`, tenant: acme, body });
    expectError(await put(device.DeviceId, { DeviceId: 'other' }), 400, 'IdMismatch');
    expectError(
      await put(device.DeviceId, { DeviceId: device.DeviceId, StoreId: 999999 }),
      400,
      'UnknownStore',
    );
    expectError(await put('missing', { DeviceId: 'missing' }), 404);
    expectError(await api.call({ url: `${DEVICES}/missing`, tenant: acme }), 404);
  });

  it('deletes a device with its logical devices (204), then 404', async () => {
    const device = await createPhysicalDevice(api, acme, null);
    const logical = await createLogicalDevice(api, acme, device.DeviceId);
    expectError(
      await api.call({
        method: 'DELETE',
        url: `${DEVICES}/${device.DeviceId}`,
        tenant: acme,
        headers: { 'if-match': '"x"' },
      }),
      412,
    );
    expectStatus(
      await api.call({ method: 'DELETE', url: `${DEVICES}/${device.DeviceId}`, tenant: acme }),
      204,
    );
    expectError(await api.call({ url: `${DEVICES}/${device.DeviceId}`, tenant: acme }), 404);
    // Its logical device went with it: the id is free again.
    const again = await createPhysicalDevice(api, acme, null);
    await createLogicalDevice(api, acme, again.DeviceId, { DeviceId: logical.DeviceId });
  });

  it("does not reach another tenant's device (404)", async () => {
    const device = await createPhysicalDevice(api, acme, null);
    expectError(await api.call({ url: `${DEVICES}/${device.DeviceId}`, tenant: globex }), 404);
    expectError(
      await api.call({ method: 'DELETE', url: `${DEVICES}/${device.DeviceId}`, tenant: globex }),
      404,
    );
  });
});
