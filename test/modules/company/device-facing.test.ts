// Device-facing logical device routes (contract §5.5): register, update, unregister and the
// list of the caller's store, with the expiry rule and the filters, in the {"Data": …} envelope.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  createApp,
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
  daysFromNow,
  deviceInStore,
  uniqueId,
  type LogicalDeviceJson,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');
let storeId: number;
let token: string;
let physicalDeviceId: string;
let plainToken: string;

beforeAll(async () => {
  storeId = (await createStore(api, acme)).Id;
  ({ token, physicalDeviceId } = await deviceInStore(api, acme, storeId));
  const consumer = await createApp(api, acme, 1);
  plainToken = await api.issueToken(acme, consumer.id, consumer.secret);
});

const URL = '/company/logicaldevices';
const register = (body: unknown, as = token) =>
  api.call({ method: 'POST', url: URL, tenant: acme, token: as, body });

describe('POST /company/logicaldevices', () => {
  it("registers to the caller's physical device: 201 in Data", async () => {
    const type = await createDeviceType(api, acme, 'InStore');
    const id = uniqueId('app');
    const expires = daysFromNow(1);
    const response = await register({
      DeviceId: id,
      Description: 'Shelf display',
      DeviceTypeId: type.Id,
      ExpirationDate: expires,
      Metadata: [{ Key: 'aisle', Value: '7' }],
    });
    expectStatus(response, 201);
    const expected = {
      DeviceId: id,
      Description: 'Shelf display',
      DeviceTypeId: type.Id,
      DeviceTypeDescription: 'InStore',
      ExpirationDate: expires,
      Metadata: [{ Key: 'aisle', Value: '7' }],
    };
    expect(response.json()).toEqual({ Data: expected });
    expect(response.headers.location).toBe(`${URL}/${id}`);
    const fetched = await api.call({ url: `${URL}/${id}`, tenant: acme, token });
    expect(fetched.json()).toEqual({ Data: expected });
    // It belongs to the caller's physical device.
    const managed = await api.call({
      url: `/management/company/physicaldevices/${physicalDeviceId}/devices/${id}`,
      tenant: acme,
    });
    expectStatus(managed, 200);
  });

  it('accepts an ExpirationDate with an offset and answers it in UTC', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const response = await register({
      DeviceId: uniqueId(),
      Description: 'x',
      ExpirationDate: `${year}-06-01T12:00:00+03:00`,
    });
    expectStatus(response, 201);
    expect(response.json<{ Data: LogicalDeviceJson }>().Data.ExpirationDate).toBe(
      `${year}-06-01T09:00:00.000Z`,
    );
  });

  it('answers 409 for a DeviceId that exists', async () => {
    const id = uniqueId();
    expectStatus(await register({ DeviceId: id, Description: 'x' }), 201);
    expectError(await register({ DeviceId: id, Description: 'y' }), 409, 'DuplicateDeviceId');
  });

  it.each([
    ['no Description', { DeviceId: 'd1' }, 'ValidationFailed'],
    ['no DeviceId', { Description: 'x' }, 'ValidationFailed'],
    [
      'a past ExpirationDate',
      { DeviceId: 'd2', Description: 'x', ExpirationDate: daysFromNow(-1) },
      'ExpirationDateInPast',
    ],
    [
      'an unknown type',
      { DeviceId: 'd3', Description: 'x', DeviceTypeId: 424242 },
      'UnknownDeviceType',
    ],
    ['an unknown field', { DeviceId: 'd4', Description: 'x', Owner: 'me' }, 'ValidationFailed'],
  ])('refuses %s with 400', async (_label, body, code) => {
    expectError(await register(body), 400, code);
  });

  it('needs an identity token: 403 IdentityTokenRequired for a plain token', async () => {
    expectError(
      await register({ DeviceId: uniqueId(), Description: 'x' }, plainToken),
      403,
      'IdentityTokenRequired',
    );
  });
});

describe('PATCH /company/logicaldevices/{deviceId}', () => {
  it('changes only the fields sent; null clears; Metadata replaces', async () => {
    const type = await createDeviceType(api, acme);
    const created = await register({
      DeviceId: uniqueId(),
      Description: 'Before',
      DeviceTypeId: type.Id,
      ExpirationDate: daysFromNow(2),
      Metadata: [{ Key: 'a', Value: '1' }],
    });
    const device = created.json<{ Data: LogicalDeviceJson }>().Data;
    const url = `${URL}/${device.DeviceId}`;
    const patch = (body: unknown, headers = {}) =>
      api.call({ method: 'PATCH', url, tenant: acme, token, body, headers });
    const renamed = await patch({ Description: 'After' });
    expectStatus(renamed, 200);
    expect(renamed.json()).toEqual({ Data: { ...device, Description: 'After' } });
    const cleared = await patch({ ExpirationDate: null, Metadata: [{ Key: 'b', Value: '2' }] });
    expect(cleared.json()).toEqual({
      Data: {
        ...device,
        Description: 'After',
        ExpirationDate: null,
        Metadata: [{ Key: 'b', Value: '2' }],
      },
    });
    expectError(await patch({ ExpirationDate: daysFromNow(-2) }), 400, 'ExpirationDateInPast');
    expectError(await patch({ Description: '' }), 400);
    expectError(await patch({ DeviceId: 'other' }), 400, 'IdMismatch');
    expectError(await patch({ Description: 'x' }, { 'if-match': '"old"' }), 412);
    const etag = (await api.call({ url, tenant: acme, token })).headers.etag as string;
    expectStatus(await patch({ Description: 'Matched' }, { 'if-match': etag }), 200);
  });

  it('answers 404 for a logical device of another physical device, 403 without identity', async () => {
    const other = await createPhysicalDevice(api, acme, storeId);
    const theirs = await createLogicalDevice(api, acme, other.DeviceId);
    const url = `${URL}/${theirs.DeviceId}`;
    expectError(
      await api.call({ method: 'PATCH', url, tenant: acme, token, body: { Description: 'x' } }),
      404,
    );
    expectError(
      await api.call({
        method: 'PATCH',
        url,
        tenant: acme,
        token: plainToken,
        body: { Description: 'x' },
      }),
      403,
      'IdentityTokenRequired',
    );
  });
});

describe('DELETE /company/logicaldevices/{deviceId}', () => {
  it('unregisters: 204, then 404', async () => {
    const id = uniqueId();
    await register({ DeviceId: id, Description: 'x' });
    expectStatus(
      await api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme, token }),
      204,
    );
    expectError(
      await api.call({ method: 'DELETE', url: `${URL}/${id}`, tenant: acme, token }),
      404,
    );
    expectError(await api.call({ url: `${URL}/${id}`, tenant: acme, token }), 404);
  });

  it('honours If-Match and needs an identity token', async () => {
    const id = uniqueId();
    await register({ DeviceId: id, Description: 'x' });
    const url = `${URL}/${id}`;
    expectError(
      await api.call({
        method: 'DELETE',
        url,
        tenant: acme,
        token,
        headers: { 'if-match': '"x"' },
      }),
      412,
    );
    expectError(await api.call({ method: 'DELETE', url, tenant: acme, token: plainToken }), 403);
  });
});

describe('GET /company/stores/logicaldevices', () => {
  it("lists the unexpired logical devices of the caller's store, filtered", async () => {
    const store = await createStore(api, acme);
    const me = await deviceInStore(api, acme, store.Id);
    const neighbour = await createPhysicalDevice(api, acme, store.Id);
    const elsewhere = await createPhysicalDevice(api, acme, storeId);
    const kiosk = await createDeviceType(api, acme, 'Kiosk');
    const a = await createLogicalDevice(api, acme, me.physicalDeviceId, {
      DeviceId: uniqueId('a'),
      DeviceTypeId: kiosk.Id,
      Metadata: [{ Key: 'lang', Value: 'tr' }],
    });
    const b = await createLogicalDevice(api, acme, neighbour.DeviceId, {
      DeviceId: uniqueId('b'),
      Metadata: [{ Key: 'lang', Value: 'en' }],
    });
    const expiring = await createLogicalDevice(api, acme, neighbour.DeviceId, {
      ExpirationDate: daysFromNow(1),
    });
    await createLogicalDevice(api, acme, elsewhere.DeviceId);
    const list = async (query = '') => {
      const response = await api.call({
        url: `/company/stores/logicaldevices${query}`,
        tenant: acme,
        token: me.token,
      });
      expectStatus(response, 200);
      return response.json<{ Data: LogicalDeviceJson[] }>().Data;
    };
    const all = await list();
    expect(all.map((d) => d.DeviceId).sort()).toEqual(
      [a.DeviceId, b.DeviceId, expiring.DeviceId].sort(),
    );
    expect(all.every((d) => d.Metadata === undefined)).toBe(true);
    // The expiry rule: once past its ExpirationDate a device is no longer listed.
    await api.database.handle.query(
      `update logical_devices set expiration_date = now() - interval '1 second' where id = $1`,
      [expiring.DeviceId],
    );
    expect((await list()).map((d) => d.DeviceId).sort()).toEqual([a.DeviceId, b.DeviceId].sort());
    expect(await list(`?deviceTypeId=${kiosk.Id}`)).toEqual([{ ...a, Metadata: undefined }]);
    expect(await list('?metadataKey=lang&metadataValue=en&includeMetadata=true')).toEqual([b]);
    expect(await list('?metadataKey=lang&metadataValue=de')).toEqual([]);
  });

  it.each([
    '?metadataKey=lang',
    '?metadataValue=tr',
    '?deviceTypeId=0',
    '?includeMetadata=perhaps',
  ])('refuses %s with 400', async (query) => {
    expectError(
      await api.call({ url: `/company/stores/logicaldevices${query}`, tenant: acme, token }),
      400,
    );
  });

  it('needs an identity token (403), and a device in a store (404)', async () => {
    expectError(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token: plainToken }),
      403,
      'IdentityTokenRequired',
    );
    const loose = await deviceInStore(api, acme, null);
    expectError(
      await api.call({ url: '/company/stores/logicaldevices', tenant: acme, token: loose.token }),
      404,
      'PhysicalDeviceHasNoStore',
    );
  });

  it("refuses the token on another tenant's host (401)", async () => {
    expectError(
      await api.call({ url: '/company/stores/logicaldevices', tenant: globex, token }),
      401,
    );
  });
});
