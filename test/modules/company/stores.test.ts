// Stores (contract §5.5) `{Id, Name, Description, Address, Location}`: CRUD, list, validation,
// ETag/If-Match, names shared by several stores (a store is its Id), the 409 for a store with
// physical devices, and tenancy.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import {
  MANAGEMENT,
  createApp,
  createPhysicalDevice,
  createStore,
  type Page,
  type StoreJson,
  uniqueId,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const URL = `${MANAGEMENT}/store`;
const body = (extra: Record<string, unknown> = {}) => ({
  Name: 'Kadikoy',
  Description: 'Flagship',
  Address: 'Bahariye Cd. 1, Istanbul',
  Location: { Longitude: 29.03, Latitude: 40.99 },
  ...extra,
});

describe('POST /management/company/store', () => {
  it('creates a store: 201, Location header, ETag and the store', async () => {
    const response = await api.call({ method: 'POST', url: URL, tenant: acme, body: body() });
    expectStatus(response, 201);
    const store = response.json<StoreJson>();
    expect(store).toEqual({ Id: expect.any(Number) as number, ...body() });
    expect(response.headers.location).toBe(`${URL}/${store.Id}`);
    expect(response.headers.etag).toMatch(/^"[a-z0-9]+"$/);
  });

  it('defaults Description and Address to null', async () => {
    const response = await api.call({
      method: 'POST',
      url: URL,
      tenant: acme,
      body: { Name: 'Bare', Location: { Longitude: -180, Latitude: 90 } },
    });
    expectStatus(response, 201);
    expect(response.json<StoreJson>()).toMatchObject({ Description: null, Address: null });
  });

  it.each([
    ['longitude above 180', { Location: { Longitude: 180.0001, Latitude: 0 } }],
    ['longitude below -180', { Location: { Longitude: -181, Latitude: 0 } }],
    ['latitude above 90', { Location: { Longitude: 0, Latitude: 90.5 } }],
    ['latitude below -90', { Location: { Longitude: 0, Latitude: -91 } }],
    ['no Location', { Location: undefined }],
    ['a string latitude', { Location: { Longitude: 0, Latitude: 'north' } }],
    ['an unknown Location field', { Location: { Longitude: 0, Latitude: 0, Altitude: 3 } }],
    ['an empty Name', { Name: '' }],
    ['an unknown field', { Manager: 'Ann' }],
  ])('refuses %s with 400', async (_label, extra) => {
    const response = await api.call({ method: 'POST', url: URL, tenant: acme, body: body(extra) });
    expectError(response, 400);
  });
});

describe('POST /management/company/store: names need not be unique', () => {
  it('creates a second store of the same name (stores are told apart by Id): both 201, both listed', async () => {
    const tenant = await api.createTenant('names-post');
    const first = await createStore(api, tenant, 13.4, 52.5, 'Berlin Mitte');
    const response = await api.call({
      method: 'POST',
      url: URL,
      tenant,
      body: body({ Name: 'Berlin Mitte', Address: 'Another street 2' }),
    });
    expectStatus(response, 201);
    const second = response.json<StoreJson>();
    expect(second).toMatchObject({ Name: 'Berlin Mitte', Address: 'Another street 2' });
    expect(second.Id).not.toBe(first.Id);
    const list = await api.call({ url: `${MANAGEMENT}/stores`, tenant });
    const page = list.json<Page<StoreJson>>();
    expect(page.TotalCount).toBe(2);
    expect(page.Results.map((s) => s.Id).sort((a, b) => a - b)).toEqual(
      [first.Id, second.Id].sort((a, b) => a - b),
    );
  });

  it('stores the name as sent, in another case and with spaces, beside the same name', async () => {
    const tenant = await api.createTenant('names-spaces');
    await createStore(api, tenant, 13.4, 52.5, 'Berlin Mitte');
    for (const name of ['BERLIN mitte', '  Berlin Mitte ', 'Berlin   Mitte']) {
      const response = await api.call({
        method: 'POST',
        url: URL,
        tenant,
        body: body({ Name: name }),
      });
      expectStatus(response, 201);
      expect(response.json<StoreJson>().Name).toBe(name);
    }
    const list = await api.call({ url: `${MANAGEMENT}/stores`, tenant });
    expect(list.json<Page<StoreJson>>().TotalCount).toBe(4);
  });
});

describe('GET /management/company/store/{id}', () => {
  it('answers the store with an ETag', async () => {
    const created = await createStore(api, acme, 10, 20, 'Fetched');
    const response = await api.call({ url: `${URL}/${created.Id}`, tenant: acme });
    expectStatus(response, 200);
    expect(response.json()).toEqual(created);
    expect(response.headers.etag).toBeDefined();
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await api.call({ url: `${URL}/999999`, tenant: acme }), 404, 'NotFound');
    expectError(await api.call({ url: `${URL}/abc`, tenant: acme }), 400);
  });
});

describe('PUT /management/company/store/{id}', () => {
  it('replaces the store and moves the ETag on', async () => {
    const created = await createStore(api, acme);
    const before = await api.call({ url: `${URL}/${created.Id}`, tenant: acme });
    const response = await api.call({
      method: 'PUT',
      url: `${URL}/${created.Id}`,
      tenant: acme,
      headers: { 'if-match': before.headers.etag as string },
      body: body({ Id: created.Id, Name: 'Renamed' }),
    });
    expectStatus(response, 200);
    expect(response.json()).toEqual({ ...body({ Name: 'Renamed' }), Id: created.Id });
    expect(response.headers.etag).not.toBe(before.headers.etag);
  });

  it("takes another store's name (200): both stores keep their Ids and have the name", async () => {
    const taken = await createStore(api, acme, 2, 48.8, uniqueId('Paris'));
    const created = await createStore(api, acme);
    const response = await api.call({
      method: 'PUT',
      url: `${URL}/${created.Id}`,
      tenant: acme,
      body: body({ Name: taken.Name }),
    });
    expectStatus(response, 200);
    expect(response.json<StoreJson>()).toMatchObject({ Id: created.Id, Name: taken.Name });
    const other = await api.call({ url: `${URL}/${taken.Id}`, tenant: acme });
    expect(other.json()).toEqual(taken);
  });

  it('keeps its own name, in another case too (200)', async () => {
    const created = await createStore(api, acme, 2, 48.8, uniqueId('Lyon'));
    const response = await api.call({
      method: 'PUT',
      url: `${URL}/${created.Id}`,
      tenant: acme,
      body: body({ Name: created.Name.toLowerCase() }),
    });
    expectStatus(response, 200);
    expect(response.json<StoreJson>().Name).toBe(created.Name.toLowerCase());
  });

  it('refuses a stale If-Match with 412 and changes nothing', async () => {
    const created = await createStore(api, acme);
    const response = await api.call({
      method: 'PUT',
      url: `${URL}/${created.Id}`,
      tenant: acme,
      headers: { 'if-match': '"stale"' },
      body: body(),
    });
    expectError(response, 412, 'PreconditionFailed');
    const after = await api.call({ url: `${URL}/${created.Id}`, tenant: acme });
    expect(after.json()).toEqual(created);
  });

  it('answers 400 for another Id in the body, out-of-range coordinates; 404 unknown', async () => {
    const created = await createStore(api, acme);
    const put = (id: number, b: unknown) =>
      api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body: b });
    expectError(await put(created.Id, body({ Id: created.Id + 1 })), 400, 'IdMismatch');
    expectError(
      await put(created.Id, body({ Location: { Longitude: 200, Latitude: 0 } })),
      400,
      'ValidationFailed',
    );
    expectError(await put(999999, body()), 404);
  });
});

describe('DELETE /management/company/store/{id}', () => {
  it('deletes a store without devices: 204, then 404', async () => {
    const created = await createStore(api, acme);
    const response = await api.call({
      method: 'DELETE',
      url: `${URL}/${created.Id}`,
      tenant: acme,
    });
    expectStatus(response, 204);
    expectError(await api.call({ url: `${URL}/${created.Id}`, tenant: acme }), 404);
    expectError(
      await api.call({ method: 'DELETE', url: `${URL}/${created.Id}`, tenant: acme }),
      404,
    );
  });

  it('refuses a store that still has physical devices with 409', async () => {
    const store = await createStore(api, acme);
    const device = await createPhysicalDevice(api, acme, store.Id);
    const response = await api.call({ method: 'DELETE', url: `${URL}/${store.Id}`, tenant: acme });
    expectError(response, 409, 'StoreHasPhysicalDevices');
    // Once the device leaves the store, the store can go.
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${MANAGEMENT}/physicaldevices/${device.DeviceId}`,
        tenant: acme,
        body: { DeviceId: device.DeviceId, StoreId: null },
      }),
      200,
    );
    expectStatus(
      await api.call({ method: 'DELETE', url: `${URL}/${store.Id}`, tenant: acme }),
      204,
    );
  });

  it('honours If-Match (412 on a stale one)', async () => {
    const created = await createStore(api, acme);
    const response = await api.call({
      method: 'DELETE',
      url: `${URL}/${created.Id}`,
      tenant: acme,
      headers: { 'if-match': '"nope"' },
    });
    expectError(response, 412);
  });
});

describe('GET /management/company/stores', () => {
  it('pages the stores in id order with the total', async () => {
    const tenant = await api.createTenant('pager');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createStore(api, tenant, i, i));
    const response = await api.call({ url: `${MANAGEMENT}/stores?skip=1&take=2`, tenant });
    expectStatus(response, 200);
    expect(response.json<Page<StoreJson>>()).toEqual({ Results: made.slice(1, 3), TotalCount: 5 });
    const empty = await api.call({ url: `${MANAGEMENT}/stores?skip=10`, tenant });
    expect(empty.json()).toEqual({ Results: [], TotalCount: 5 });
  });

  it.each(['skip=-1', 'take=0', 'take=1001', 'take=x'])('refuses %s with 400', async (q) => {
    expectError(await api.call({ url: `${MANAGEMENT}/stores?${q}`, tenant: acme }), 400);
  });
});

describe('stores and tenants', () => {
  it("refuses a tenant's token on another tenant's host with 401", async () => {
    const response = await api.call({
      url: `${MANAGEMENT}/stores`,
      tenant: globex,
      token: acme.token,
    });
    expectError(response, 401);
  });

  it("does not show or change one tenant's store on another's host (404)", async () => {
    const store = await createStore(api, acme);
    expectError(await api.call({ url: `${URL}/${store.Id}`, tenant: globex }), 404);
    expectError(
      await api.call({ method: 'PUT', url: `${URL}/${store.Id}`, tenant: globex, body: body() }),
      404,
    );
    expectError(
      await api.call({ method: 'DELETE', url: `${URL}/${store.Id}`, tenant: globex }),
      404,
    );
    const list = await api.call({ url: `${MANAGEMENT}/stores`, tenant: globex });
    expect(list.json<Page<StoreJson>>().Results.map((s) => s.Id)).not.toContain(store.Id);
  });

  it('needs the management scope (403 for a Consumer app token)', async () => {
    const consumer = await createApp(api, acme, 1);
    const token = await api.issueToken(acme, consumer.id, consumer.secret);
    expectError(await api.call({ url: `${MANAGEMENT}/stores`, tenant: acme, token }), 403);
  });
});
