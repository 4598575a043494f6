// Conditional GET (RFC 9110 §13.1.2): every resource whose fetch answers an ETag answers 304 Not
// Modified, with no body, to an If-None-Match naming it — resource by resource, GET and HEAD;
// and the last test holds the list below to the operations the document gives a 304.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { expectStatus } from '../support/expectations.ts';
import { useStartedApi, useTenant } from '../support/test-api.ts';
import {
  CATALOG,
  createAttributeType,
  createBrand,
  createCategory,
  createItem,
  createPriceType,
  createTag,
  unique,
} from '../modules/catalog/catalog-fixtures.ts';
import {
  MANAGEMENT,
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
  deviceInStore,
  uniqueId,
} from '../modules/company/company-fixtures.ts';
import { createEndpoint } from '../modules/integration/integration-fixtures.ts';
import { createAsset, startStorageApi } from '../modules/storage/storage-fixtures.ts';

const api = useStartedApi(() => startStorageApi('disk'));
const acme = useTenant(api, 'acme');

/** The operations the tests below covered, as `GET /document/path`. */
const covered = new Set<string>();

const get = (url: string, headers: Record<string, string> = {}, token?: string) =>
  api.call({ url, tenant: acme, headers, ...(token ? { token } : {}) });

/**
 * 304 with the ETag and no body, Content-Type or Content-Length (a HEAD's may be the 200's, as
 * RFC 9110 §8.6 allows).
 */
function expectNotModified(
  response: LightMyRequestResponse,
  etag: string,
  lengthOf200?: number,
): void {
  expect(response.statusCode, response.body).toBe(304);
  expect(response.rawPayload.length).toBe(0);
  expect(response.headers['content-type']).toBeUndefined();
  const length = response.headers['content-length'];
  if (length !== undefined) expect(Number(length)).toBe(lengthOf200);
  expect(response.headers.etag).toBe(etag);
}

/**
 * The conditional fetches of one resource: the current ETag (alone, weak, in a list, `*`) is
 * 304 on GET and HEAD; another ETag is the whole answer; after `change`, the old ETag is too.
 */
async function expectConditionalGet(
  operation: string,
  url: string,
  options: { token?: string; change?: () => Promise<void> } = {},
): Promise<void> {
  const { token, change } = options;
  const fetched = await get(url, {}, token);
  expectStatus(fetched, 200);
  const etag = fetched.headers.etag;
  expect(typeof etag, `${url} answers an ETag`).toBe('string');
  const current = String(etag);

  expectNotModified(await get(url, { 'if-none-match': current }, token), current);
  expectNotModified(await get(url, { 'if-none-match': `W/${current}` }, token), current);
  expectNotModified(await get(url, { 'if-none-match': `"stale", ${current}` }, token), current);
  expectNotModified(await get(url, { 'if-none-match': '*' }, token), current);
  const head = await api.call({
    method: 'HEAD',
    url,
    tenant: acme,
    headers: { 'if-none-match': current },
    ...(token ? { token } : {}),
  });
  expectNotModified(head, current, fetched.rawPayload.length);

  const other = await get(url, { 'if-none-match': '"not-the-current-one"' }, token);
  expectStatus(other, 200);
  expect(other.body).toBe(fetched.body);

  if (change) {
    await change();
    const changed = await get(url, { 'if-none-match': current }, token);
    expectStatus(changed, 200);
    expect(changed.headers.etag).not.toBe(current);
    expectNotModified(
      await get(url, { 'if-none-match': String(changed.headers.etag) }, token),
      String(changed.headers.etag),
    );
  }
  covered.add(`GET ${operation}`);
}

const put = async (url: string, body: unknown) =>
  expectStatus(await api.call({ method: 'PUT', url, tenant: acme, body }), 200);

describe('If-None-Match on every resource that answers an ETag', () => {
  it('brand', async () => {
    const brand = await createBrand(api, acme);
    const url = `${CATALOG}/brand/${brand.Id}`;
    await expectConditionalGet('/private/catalog/brand/{id}', url, {
      change: () => put(url, { Name: unique('Renamed') }),
    });
  });

  it('tag', async () => {
    const tag = await createTag(api, acme);
    const url = `${CATALOG}/tag/${tag.Id}`;
    await expectConditionalGet('/private/catalog/tag/{id}', url, {
      change: () => put(url, { Name: unique('Renamed') }),
    });
  });

  it('price type', async () => {
    const priceType = await createPriceType(api, acme);
    await expectConditionalGet(
      '/private/catalog/pricetype/{id}',
      `${CATALOG}/pricetype/${priceType.Id}`,
    );
  });

  it('dynamic attribute type', async () => {
    const type = await createAttributeType(api, acme);
    await expectConditionalGet(
      '/private/catalog/dynamicattributetypes/{id}',
      `${CATALOG}/dynamicattributetypes/${type.Id}`,
    );
  });

  it('category', async () => {
    const category = await createCategory(api, acme);
    const url = `${CATALOG}/category/${category.Id}`;
    await expectConditionalGet('/private/catalog/category/{id}', url, {
      change: async () => {
        const fetched = (await get(url)).json<Record<string, unknown>>();
        await put(url, { ...fetched, Name: unique('Renamed') });
      },
    });
  });

  it('item', async () => {
    const item = await createItem(api, acme);
    const url = `${CATALOG}/item/${item.Id}`;
    await expectConditionalGet('/private/catalog/item/{id}', url, {
      change: async () => {
        const fetched = (await get(url)).json<Record<string, unknown>>();
        await put(url, { ...fetched, Title: 'Changed' });
      },
    });
  });

  it('store', async () => {
    const store = await createStore(api, acme);
    await expectConditionalGet('/management/company/store/{id}', `${MANAGEMENT}/store/${store.Id}`);
  });

  it('device type', async () => {
    const type = await createDeviceType(api, acme);
    await expectConditionalGet(
      '/management/company/devicetypes/{id}',
      `${MANAGEMENT}/devicetypes/${type.Id}`,
    );
  });

  it('physical device and its logical device', async () => {
    const physical = await createPhysicalDevice(api, acme, null);
    await expectConditionalGet(
      '/management/company/physicaldevices/{physicalDeviceId}',
      `${MANAGEMENT}/physicaldevices/${physical.DeviceId}`,
    );
    const logical = await createLogicalDevice(api, acme, physical.DeviceId);
    await expectConditionalGet(
      '/management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}',
      `${MANAGEMENT}/physicaldevices/${physical.DeviceId}/devices/${logical.DeviceId}`,
    );
  });

  it('logical device, device-facing (identity token)', async () => {
    const store = await createStore(api, acme);
    const device = await deviceInStore(api, acme, store.Id);
    const registered = await api.call({
      method: 'POST',
      url: '/company/logicaldevices',
      tenant: acme,
      token: device.token,
      body: { DeviceId: uniqueId('ld'), Description: 'Shelf screen' },
    });
    expectStatus(registered, 201);
    const { DeviceId } = registered.json<{ Data: { DeviceId: string } }>().Data;
    await expectConditionalGet(
      '/company/logicaldevices/{deviceId}',
      `/company/logicaldevices/${DeviceId}`,
      { token: device.token },
    );
  });

  it('analytics settings and trending action types', async () => {
    const settings = '/management/configuration/analytics';
    await expectConditionalGet(settings, settings, {
      change: () => put(settings, { TimeZone: 'Europe/Istanbul' }),
    });
    const weights = '/management/configuration/trendingactiontypes';
    await expectConditionalGet(weights, weights);
  });

  it('integration endpoint', async () => {
    const created = await createEndpoint(api, acme, {
      ServiceName: `cg-${Date.now() % 100000}`,
      ServiceTier: 0,
      AdminMail: 'ops@example.com',
    });
    expectStatus(created, 201);
    await expectConditionalGet(
      '/management/integration/endpoint',
      '/management/integration/endpoint',
    );
  });

  it('app', async () => {
    await expectConditionalGet(
      '/management/oauth/apps/{applicationId}',
      `/management/oauth/apps/${acme.appId}`,
    );
  });

  it('member', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/security/members',
      tenant: acme,
      body: {
        Username: uniqueId('editor'),
        Name: 'An editor',
        Password: 'violet-Harbor-lamp-92',
        Roles: [{ Id: 'catalog-editor' }],
      },
    });
    expectStatus(created, 201);
    const { Id } = created.json<{ Id: string }>();
    await expectConditionalGet(
      '/management/security/members/{id}',
      `/management/security/members/${Id}`,
    );
  });

  it('asset', async () => {
    const asset = await createAsset(api, acme);
    await expectConditionalGet(
      '/management/storage/asset/{id}',
      `/management/storage/asset/${asset.Id}`,
    );
  });

  it('webhook subscription', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: { Url: 'https://hooks.example.com/omni', EventTypes: ['integration_endpoint.deleted'] },
    });
    expectStatus(created, 201);
    const { Id } = created.json<{ Id: number }>();
    const url = `/management/webhooks/${Id}`;
    await expectConditionalGet('/management/webhooks/{id}', url, {
      change: async () => {
        const fetched = (await get(url)).json<Record<string, unknown>>();
        await put(url, { ...fetched, Description: 'Changed' });
      },
    });
  });

  it('change history settings', async () => {
    const settings = '/management/history/settings';
    await expectConditionalGet(settings, settings, {
      change: () => put(settings, { RetentionDays: 500 }),
    });
  });

  it('leaves answers without an ETag, errors and writes as they are', async () => {
    const list = await get(`${CATALOG}/brands`, { 'if-none-match': '*' });
    expectStatus(list, 200);
    const missing = await get(`${CATALOG}/brand/999999`, { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    const brand = await createBrand(api, acme);
    const url = `${CATALOG}/brand/${brand.Id}`;
    const etag = String((await get(url)).headers.etag);
    const written = await api.call({
      method: 'PUT',
      url,
      tenant: acme,
      headers: { 'if-none-match': etag },
      body: { Name: unique('Written') },
    });
    expectStatus(written, 200);
  });

  it('covers every fetch the document gives a 304 and an If-None-Match', async () => {
    const document = (await api.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>
      >;
    }>();
    const documented = Object.entries(document.paths)
      .filter(([, item]) => item.get?.responses['304'])
      .map(([path]) => `GET ${path}`)
      // Asset bytes have their own 304 and tests (test/modules/storage/asset-content.test.ts).
      .filter((operation) => operation !== 'GET /storage/blobs/{key}');
    for (const [path, item] of Object.entries(document.paths))
      if (item.get?.responses['304'])
        expect(
          item.get.parameters?.map((p) => p.name),
          path,
        ).toContain('If-None-Match');
    expect([...covered].sort()).toEqual(documented.sort());
  });
});
