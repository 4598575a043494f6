// Identity tokens (contract §3): POST /oauth/token with physical_device_id, the `dev` claim,
// and a device deleted or moved taking effect for its tokens at once.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  MANAGEMENT,
  createApp,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
  deviceInStore,
  identityToken,
  requestIdentityToken,
  type LogicalDeviceJson,
  uniqueId,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

describe('POST /oauth/token with physical_device_id', () => {
  it.each([1, 4])('issues an identity token to an app of type %i, carrying dev', async (type) => {
    const app = await createApp(api, acme, type);
    const device = await createPhysicalDevice(api, acme, null);
    const response = await requestIdentityToken(api, acme, app, device.DeviceId);
    expectStatus(response, 200);
    const body = response.json<{ access_token: string; token_type: string; scope: string }>();
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'public' });
    expect(decodeJwt(body.access_token)).toMatchObject({ dev: device.DeviceId });
  });

  it.each([2, 3])('refuses an app of type %i with 400 unauthorized_client', async (type) => {
    const app = await createApp(api, acme, type);
    const device = await createPhysicalDevice(api, acme, null);
    const response = await requestIdentityToken(api, acme, app, device.DeviceId);
    expectStatus(response, 400);
    expect(response.json()).toMatchObject({ error: 'unauthorized_client' });
  });

  it('refuses an unknown device, or one of another tenant, with 400 invalid_grant', async () => {
    const app = await createApp(api, acme, 4);
    const unknown = await requestIdentityToken(api, acme, app, 'no-such-device');
    expectStatus(unknown, 400);
    expect(unknown.json()).toMatchObject({ error: 'invalid_grant' });
    const foreign = await createPhysicalDevice(api, globex, null);
    const response = await requestIdentityToken(api, acme, app, foreign.DeviceId);
    expect(response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('issues plain tokens without dev when physical_device_id is left out', async () => {
    const app = await createApp(api, acme, 4);
    const token = await api.issueToken(acme, app.id, app.secret);
    expect(decodeJwt(token).dev).toBeUndefined();
  });
});

describe('identity tokens of a deleted device', () => {
  it('are refused with 401 on every route once the device is deleted', async () => {
    const store = await createStore(api, acme);
    const { token, physicalDeviceId } = await deviceInStore(api, acme, store.Id);
    // Verified (and cached) before the deletion.
    expectStatus(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token }),
      200,
    );
    expectStatus(await api.call({ url: '/company/devicetypes', tenant: acme, token }), 200);
    expectStatus(
      await api.call({
        method: 'DELETE',
        url: `${MANAGEMENT}/physicaldevices/${physicalDeviceId}`,
        tenant: acme,
      }),
      204,
    );
    for (const url of [
      '/company/stores/logicaldevices',
      '/company/devicetypes',
      '/company/stores/0;0/logicaldevices',
    ]) {
      const response = await api.call({ url, tenant: acme, token });
      expectError(response, 401, 'InvalidToken');
      expect(response.headers['www-authenticate']).toContain('invalid_token');
    }
    const register = await api.call({
      method: 'POST',
      url: '/company/logicaldevices',
      tenant: acme,
      token,
      body: { DeviceId: 'after-delete', Description: 'x' },
    });
    expectError(register, 401);
  });
});

describe('identity tokens of a device deleted and made again under the same id', () => {
  it('stay refused (401) while a token issued to the new device works', async () => {
    const store = await createStore(api, acme);
    const { app, token, physicalDeviceId } = await deviceInStore(api, acme, store.Id);
    expectStatus(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token }),
      200,
    );
    expectStatus(
      await api.call({
        method: 'DELETE',
        url: `${MANAGEMENT}/physicaldevices/${physicalDeviceId}`,
        tenant: acme,
      }),
      204,
    );
    await createPhysicalDevice(api, acme, store.Id, physicalDeviceId);
    for (const url of ['/company/stores/logicaldevices', '/company/devicetypes']) {
      const response = await api.call({ url, tenant: acme, token });
      expectError(response, 401, 'InvalidToken');
    }
    const register = await api.call({
      method: 'POST',
      url: '/company/logicaldevices',
      tenant: acme,
      token,
      body: { DeviceId: uniqueId('ld'), Description: 'x' },
    });
    expectError(register, 401, 'InvalidToken');
    const fresh = await identityToken(api, acme, app, physicalDeviceId);
    expectStatus(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token: fresh }),
      200,
    );
  });
});

describe('identity tokens of a moved device', () => {
  it("act for the device's new store at once", async () => {
    const first = await createStore(api, acme);
    const second = await createStore(api, acme);
    const { token, physicalDeviceId } = await deviceInStore(api, acme, first.Id);
    const neighbour = await createPhysicalDevice(api, acme, second.Id);
    const theirs = await createLogicalDevice(api, acme, neighbour.DeviceId);
    const mine = await createLogicalDevice(api, acme, physicalDeviceId);
    const listed = async () => {
      const response = await api.call({
        url: '/company/stores/logicaldevices',
        tenant: acme,
        token,
      });
      expectStatus(response, 200);
      return response.json<{ Data: LogicalDeviceJson[] }>().Data.map((d) => d.DeviceId);
    };
    expect(await listed()).toEqual([mine.DeviceId]);
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${MANAGEMENT}/physicaldevices/${physicalDeviceId}`,
        tenant: acme,
        body: { DeviceId: physicalDeviceId, StoreId: second.Id },
      }),
      200,
    );
    expect((await listed()).sort()).toEqual([mine.DeviceId, theirs.DeviceId].sort());
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${MANAGEMENT}/physicaldevices/${physicalDeviceId}`,
        tenant: acme,
        body: { DeviceId: physicalDeviceId, StoreId: null },
      }),
      200,
    );
    expectError(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token }),
      404,
      'PhysicalDeviceHasNoStore',
    );
  });
});

describe('identity tokens and tenants', () => {
  it("are refused with 401 on another tenant's host", async () => {
    const store = await createStore(api, acme);
    const { token, physicalDeviceId } = await deviceInStore(api, acme, store.Id);
    // A device of the same id in globex does not make the token valid there.
    await createPhysicalDevice(api, globex, null, physicalDeviceId);
    const response = await api.call({
      url: '/company/stores/logicaldevices',
      tenant: globex,
      token,
    });
    expectError(response, 401, 'InvalidToken');
    const app = await createApp(api, globex, 4);
    const globexDevice = await createPhysicalDevice(api, globex, null);
    const globexToken = await identityToken(api, globex, app, globexDevice.DeviceId);
    expectError(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token: globexToken }),
      401,
    );
  });
});
