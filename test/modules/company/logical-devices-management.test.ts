// The logical devices of one physical device and their metadata, under
// /management/company/physicaldevices/{physicalDeviceId}/devices (contract §5.5).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  MANAGEMENT,
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  daysFromNow,
  uniqueId,
  type LogicalDeviceJson,
  type Page,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');
let physical: string;

beforeAll(async () => {
  physical = (await createPhysicalDevice(api, acme, null)).DeviceId;
});

const devices = (pd = physical) => `${MANAGEMENT}/physicaldevices/${pd}/devices`;

describe('POST …/physicaldevices/{id}/devices', () => {
  it('registers a logical device with type, expiry and metadata: 201', async () => {
    const type = await createDeviceType(api, acme, 'Kiosk');
    const expires = daysFromNow(30);
    const id = uniqueId('ld');
    const response = await api.call({
      method: 'POST',
      url: devices(),
      tenant: acme,
      body: {
        DeviceId: id,
        Description: 'Kiosk app',
        DeviceTypeId: type.Id,
        ExpirationDate: expires,
        Metadata: [{ Key: 'floor', Value: '2' }],
      },
    });
    expectStatus(response, 201);
    expect(response.json()).toEqual({
      DeviceId: id,
      Description: 'Kiosk app',
      DeviceTypeId: type.Id,
      DeviceTypeDescription: 'Kiosk',
      ExpirationDate: expires,
      Metadata: [{ Key: 'floor', Value: '2' }],
    });
    expect(response.headers.location).toBe(`${devices()}/${id}`);
  });

  it('answers 409 for a DeviceId that exists (on any physical device)', async () => {
    const existing = await createLogicalDevice(api, acme, physical);
    const other = await createPhysicalDevice(api, acme, null);
    const response = await api.call({
      method: 'POST',
      url: devices(other.DeviceId),
      tenant: acme,
      body: { DeviceId: existing.DeviceId, Description: 'again' },
    });
    expectError(response, 409, 'DuplicateDeviceId');
  });

  it.each([
    ['no Description', { Description: undefined }, 'ValidationFailed'],
    ['a past ExpirationDate', { ExpirationDate: '2020-01-01T00:00:00Z' }, 'ExpirationDateInPast'],
    ['a malformed ExpirationDate', { ExpirationDate: 'tomorrow' }, 'ValidationFailed'],
    ['an unknown device type', { DeviceTypeId: 999999 }, 'UnknownDeviceType'],
    [
      'a repeated metadata key',
      {
        Metadata: [
          { Key: 'a', Value: '1' },
          { Key: 'a', Value: '2' },
        ],
      },
      'RepeatedMetadataKey',
    ],
    ['an unknown field', { Color: 'red' }, 'ValidationFailed'],
  ])('refuses %s with 400 and stores nothing', async (_label, extra, code) => {
    const id = uniqueId('bad');
    const response = await api.call({
      method: 'POST',
      url: devices(),
      tenant: acme,
      body: { DeviceId: id, Description: 'x', ...extra },
    });
    expectError(response, 400, code);
    expectError(await api.call({ url: `${devices()}/${id}`, tenant: acme }), 404);
  });

  it('answers 404 for an unknown physical device', async () => {
    const response = await api.call({
      method: 'POST',
      url: devices('nowhere'),
      tenant: acme,
      body: { DeviceId: uniqueId(), Description: 'x' },
    });
    expectError(response, 404);
  });
});

describe('GET …/devices and …/devices/{id}', () => {
  it('lists every logical device of the physical device, expired ones too, paged', async () => {
    const pd = (await createPhysicalDevice(api, acme, null)).DeviceId;
    const a = await createLogicalDevice(api, acme, pd, { DeviceId: 'a' });
    const b = await createLogicalDevice(api, acme, pd, { DeviceId: 'b' });
    // Expire b directly: the API refuses past dates.
    await api.database.handle.query(
      `update logical_devices set expiration_date = now() - interval '1 day' where id = 'b'`,
    );
    const response = await api.call({ url: devices(pd), tenant: acme });
    expectStatus(response, 200);
    const page = response.json<Page<LogicalDeviceJson>>();
    expect(page.TotalCount).toBe(2);
    expect(page.Results.map((d) => d.DeviceId)).toEqual([a.DeviceId, b.DeviceId]);
    const second = await api.call({ url: `${devices(pd)}?skip=1&take=1`, tenant: acme });
    expect(second.json<Page<LogicalDeviceJson>>().Results.map((d) => d.DeviceId)).toEqual(['b']);
    expectError(await api.call({ url: devices('nowhere'), tenant: acme }), 404);
  });

  it('fetches one with an ETag; 404 under another physical device', async () => {
    const device = await createLogicalDevice(api, acme, physical);
    const response = await api.call({ url: `${devices()}/${device.DeviceId}`, tenant: acme });
    expectStatus(response, 200);
    expect(response.json()).toEqual(device);
    expect(response.headers.etag).toBeDefined();
    const other = await createPhysicalDevice(api, acme, null);
    expectError(
      await api.call({ url: `${devices(other.DeviceId)}/${device.DeviceId}`, tenant: acme }),
      404,
    );
  });
});

describe('PUT and DELETE …/devices/{id}', () => {
  it('replaces the device (fields left out are cleared) honouring If-Match', async () => {
    const type = await createDeviceType(api, acme);
    const device = await createLogicalDevice(api, acme, physical, {
      DeviceTypeId: type.Id,
      Metadata: [{ Key: 'k', Value: 'v' }],
    });
    const url = `${devices()}/${device.DeviceId}`;
    const stale = await api.call({
      method: 'PUT',
      url,
      tenant: acme,
      headers: { 'if-match': '"0"' },
      body: { DeviceId: device.DeviceId, Description: 'New' },
    });
    expectError(stale, 412);
    const response = await api.call({
      method: 'PUT',
      url,
      tenant: acme,
      body: { DeviceId: device.DeviceId, Description: 'New' },
    });
    expectStatus(response, 200);
    expect(response.json()).toEqual({
      DeviceId: device.DeviceId,
      Description: 'New',
      DeviceTypeId: null,
      DeviceTypeDescription: null,
      ExpirationDate: null,
      Metadata: [],
    });
    expectError(
      await api.call({
        method: 'PUT',
        url,
        tenant: acme,
        body: { DeviceId: 'x', Description: 'y' },
      }),
      400,
      'IdMismatch',
    );
  });

  it('deletes the device: 204, then 404', async () => {
    const device = await createLogicalDevice(api, acme, physical);
    const url = `${devices()}/${device.DeviceId}`;
    expectStatus(await api.call({ method: 'DELETE', url, tenant: acme }), 204);
    expectError(await api.call({ url, tenant: acme }), 404);
    expectError(await api.call({ method: 'DELETE', url, tenant: acme }), 404);
  });
});

describe('metadata of a logical device', () => {
  it('adds (201), lists, changes and removes pairs; 409 for a key that exists', async () => {
    const device = await createLogicalDevice(api, acme, physical);
    const url = `${devices()}/${device.DeviceId}/metadata`;
    const added = await api.call({
      method: 'POST',
      url,
      tenant: acme,
      body: { Key: 'zone', Value: 'A' },
    });
    expectStatus(added, 201);
    expect(added.json()).toEqual({ Key: 'zone', Value: 'A' });
    expect(added.headers.location).toBe(`${url}/zone`);
    await api.call({ method: 'POST', url, tenant: acme, body: { Key: 'lang', Value: 'tr' } });
    const duplicate = await api.call({
      method: 'POST',
      url,
      tenant: acme,
      body: { Key: 'zone', Value: 'B' },
    });
    expectError(duplicate, 409, 'DuplicateMetadataKey');
    const changed = await api.call({
      method: 'PUT',
      url: `${url}/zone`,
      tenant: acme,
      body: { Key: 'zone', Value: 'C' },
    });
    expectStatus(changed, 200);
    expect((await api.call({ url, tenant: acme })).json()).toEqual([
      { Key: 'zone', Value: 'C' },
      { Key: 'lang', Value: 'tr' },
    ]);
    expectStatus(await api.call({ method: 'DELETE', url: `${url}/zone`, tenant: acme }), 204);
    expect((await api.call({ url, tenant: acme })).json()).toEqual([{ Key: 'lang', Value: 'tr' }]);
    expectStatus(await api.call({ method: 'DELETE', url, tenant: acme }), 204);
    expect((await api.call({ url, tenant: acme })).json()).toEqual([]);
  });

  it('answers 404 for unknown keys and devices, 400 for bad pairs', async () => {
    const device = await createLogicalDevice(api, acme, physical);
    const url = `${devices()}/${device.DeviceId}/metadata`;
    expectError(
      await api.call({
        method: 'PUT',
        url: `${url}/none`,
        tenant: acme,
        body: { Key: 'none', Value: '1' },
      }),
      404,
    );
    expectError(await api.call({ method: 'DELETE', url: `${url}/none`, tenant: acme }), 404);
    expectError(
      await api.call({
        method: 'PUT',
        url: `${url}/a`,
        tenant: acme,
        body: { Key: 'b', Value: '1' },
      }),
      400,
      'IdMismatch',
    );
    expectError(
      await api.call({ method: 'POST', url, tenant: acme, body: { Key: '', Value: 'x' } }),
      400,
    );
    expectError(await api.call({ method: 'POST', url, tenant: acme, body: { Key: 'k' } }), 400);
    expectError(await api.call({ url: `${devices()}/nope/metadata`, tenant: acme }), 404);
  });
});

describe('logical devices and tenants', () => {
  it("answers 404 for another tenant's devices and 401 for its token", async () => {
    const device = await createLogicalDevice(api, acme, physical);
    expectError(await api.call({ url: `${devices()}/${device.DeviceId}`, tenant: globex }), 404);
    expectError(await api.call({ url: devices(), tenant: globex }), 404);
    expectError(await api.call({ url: devices(), tenant: globex, token: acme.token }), 401);
  });
});
