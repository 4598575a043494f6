// A client's habit: fetch a resource, change a field (or none), send the document back. For every
// resource with a GET and a PUT (or a PATCH as its update), the fetched document sent back
// unchanged is 200 and changes nothing; its read-only fields (ids it cannot change, names of
// related rows, counts, dates) sent with other values are ignored; an unknown field is still 400.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { expectError, expectStatus } from '../support/expectations.ts';
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
  daysFromNow,
  deviceInStore,
  uniqueId,
} from '../modules/company/company-fixtures.ts';
import { createAsset, pdf, startStorageApi } from '../modules/storage/storage-fixtures.ts';

const api = useStartedApi(() => startStorageApi('disk'));
const acme = useTenant(api, 'acme');

const OLD_DATE = '2001-02-03T04:05:06.000Z';

interface RoundTrip {
  /** Where the resource is fetched. */
  url: string;
  /** Where and how the update goes: PUT to the same URL unless said. */
  update?: { method?: 'PUT' | 'PATCH'; url?: string };
  /** Another token than the tenant's management app's. */
  token?: string;
  /** Device-facing resources answer `{"Data": …}` and take the bare object. */
  enveloped?: boolean;
  /** What a client sends back, when it has to add something the fetch leaves out. */
  sent?: (fetched: Document) => Document;
  /** Read-only fields (of each element, for a list) with values other than the resource's. */
  readOnly?: Record<string, unknown>;
  /** Fields that every write moves (the modification date). */
  moving?: string[];
}

type Document = Record<string, unknown> | Record<string, unknown>[];

function documentOf(response: LightMyRequestResponse, enveloped: boolean): Document {
  expectStatus(response, 200);
  return enveloped ? response.json<{ Data: Document }>().Data : response.json<Document>();
}

/** The document without the fields every write moves. */
function stable(document: Document, moving: string[]): Document {
  const strip = (object: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(object).filter(([key]) => !moving.includes(key)));
  return Array.isArray(document) ? document.map(strip) : strip(document);
}

/** Every field of `extra` put into the document (into each element of a list). */
function withFields(document: Document, extra: Record<string, unknown>): Document {
  return Array.isArray(document)
    ? document.map((element) => ({ ...element, ...extra }))
    : { ...document, ...extra };
}

async function expectRoundTrip(trip: RoundTrip): Promise<void> {
  const { url, token, enveloped = false, readOnly = {}, moving = [] } = trip;
  const method = trip.update?.method ?? 'PUT';
  const updateUrl = trip.update?.url ?? url;
  const fetch = async () => documentOf(await api.call({ url, tenant: acme, token }), enveloped);
  const send = (body: Document) => api.call({ method, url: updateUrl, tenant: acme, token, body });

  const fetched = await fetch();
  const sent = trip.sent ? trip.sent(fetched) : fetched;
  // What a validating proxy (Prism) or a generated client's validator checks: the document sent
  // back is valid against the operation's request schema, read-only fields included.
  const validate = await requestValidator(method, updateUrl.split('?')[0]!);
  expect(validate(sent), `${method} ${updateUrl}: ${JSON.stringify(validate.errors)}`).toBe(true);

  const unchanged = await send(sent);
  expectStatus(unchanged, 200);
  expect(stable(await fetch(), moving)).toEqual(stable(fetched, moving));

  if (Object.keys(readOnly).length > 0) {
    expectStatus(await send(withFields(sent, readOnly)), 200);
    expect(stable(await fetch(), moving), 'read-only fields are ignored').toEqual(
      stable(fetched, moving),
    );
  }

  const unknown = withFields(sent, { NoSuchField: 1 });
  const refused = expectError(await send(unknown), 400, 'ValidationFailed');
  expect(refused.Errors?.map((e) => e.Field).join(' ')).toContain('NoSuchField');
}

interface OpenApiSchema {
  $ref?: string;
  type?: string;
  items?: OpenApiSchema;
  description?: string;
  properties?: Record<string, OpenApiSchema & { readOnly?: boolean }>;
}
interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: OpenApiSchema }> } }>
  >;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

/** The properties of an operation's JSON body (of its elements, for a list), refs followed. */
function bodyProperties(document: OpenApiDocument, method: string, path: string) {
  const resolve = (schema: OpenApiSchema): OpenApiSchema =>
    schema.$ref ? resolve(document.components!.schemas![schema.$ref.split('/').pop()!]!) : schema;
  const operation = document.paths[path]?.[method];
  let schema = resolve(operation!.requestBody!.content['application/json']!.schema);
  if (schema.type === 'array') schema = resolve(schema.items!);
  return schema.properties ?? {};
}

let openApi: OpenApiDocument | undefined;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** The validator of an operation's JSON request body, the operation found by its path. */
async function requestValidator(method: string, path: string): Promise<ValidateFunction> {
  openApi ??= (await api.app.inject({ url: '/openapi.json' })).json<OpenApiDocument>();
  const template = Object.keys(openApi.paths).find(
    (candidate) =>
      openApi!.paths[candidate]?.[method.toLowerCase()]?.requestBody &&
      new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  if (!template) throw new Error(`no operation ${method} ${path} with a body`);
  const operation = openApi.paths[template]![method.toLowerCase()]!;
  return ajv.compile(operation.requestBody!.content['application/json']!.schema);
}

describe('GET → PUT round trip', () => {
  it.each([
    [
      'put',
      '/private/catalog/category/{id}',
      'ParentCategoryName SubCategoryCount CategoryMetadata',
    ],
    [
      'patch',
      '/private/catalog/category/{id}',
      'ParentCategoryName SubCategoryCount CategoryMetadata',
    ],
    ['put', '/private/catalog/item/{id}', 'LikeCount DateAdded DateModified'],
    ['put', '/private/catalog/items/{id}/prices', 'PriceId PriceTypeSymbol CurrencySymbol'],
    ['put', '/private/catalog/items/{id}/dynamicattributes', 'TypeName'],
    ['put', '/private/catalog/items/{id}/document', 'AssetUrl MimeType FileName'],
    ['put', '/management/company/physicaldevices/{physicalDeviceId}', 'StoreName'],
    [
      'put',
      '/management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}',
      'DeviceTypeDescription',
    ],
    ['patch', '/company/logicaldevices/{deviceId}', 'DeviceTypeDescription'],
    [
      'put',
      '/management/oauth/apps/{applicationId}',
      'ApplicationSecret IsPredefined ApplicationTypeDescription CreatedDate',
    ],
    [
      'put',
      '/management/webhooks/{id}',
      'DisabledReason FailingSince Secret PreviousSecretExpiresDate CreatedDate ModifiedDate',
    ],
  ])(
    'the OpenAPI document takes the read-only fields of %s %s, described, not marked readOnly',
    async (method, path, fields) => {
      const response = await api.app.inject({ url: '/openapi.json' });
      const properties = bodyProperties(response.json<OpenApiDocument>(), method, path);
      for (const field of fields.split(' ')) {
        // readOnly would tell validators to refuse them in a request (OpenAPI: SHOULD NOT be sent).
        expect(properties[field], `${method} ${path} ${field}`).toBeDefined();
        expect(properties[field]?.readOnly, `${method} ${path} ${field}`).toBeUndefined();
        expect(properties[field]?.description, `${method} ${path} ${field}`).toMatch(/read-only/i);
      }
    },
  );

  it('brand', async () => {
    const brand = await createBrand(api, acme);
    await expectRoundTrip({ url: `${CATALOG}/brand/${brand.Id}` });
  });

  it('tag', async () => {
    const tag = await createTag(api, acme, { Description: 'Summer' });
    await expectRoundTrip({ url: `${CATALOG}/tag/${tag.Id}` });
  });

  it('price type', async () => {
    const priceType = await createPriceType(api, acme);
    await expectRoundTrip({ url: `${CATALOG}/pricetype/${priceType.Id}` });
  });

  it('dynamic attribute type, by PUT and by PATCH', async () => {
    const type = await createAttributeType(api, acme);
    await expectRoundTrip({ url: `${CATALOG}/dynamicattributetypes/${type.Id}` });
    await expectRoundTrip({
      url: `${CATALOG}/dynamicattributetypes/${type.Id}`,
      update: { method: 'PATCH' },
    });
  });

  it('category (with a parent, a subcategory and metadata), by PUT and by PATCH', async () => {
    const parent = await createCategory(api, acme);
    const category = await createCategory(api, acme, {
      ParentCategoryId: parent.Id,
      ShortDescription: 'Short',
    });
    await createCategory(api, acme, { ParentCategoryId: category.Id });
    const metadata = await api.call({
      method: 'POST',
      url: `${CATALOG}/categorymetadata`,
      tenant: acme,
      body: { CategoryId: category.Id, Key: 'season', Value: 'summer' },
    });
    expectStatus(metadata, 201);
    const readOnly = {
      ParentCategoryName: 'Another name',
      SubCategoryCount: 42,
      CategoryMetadata: [{ Key: 'other', Value: 'value' }],
    };
    const url = `${CATALOG}/category/${category.Id}`;
    await expectRoundTrip({ url, readOnly });
    await expectRoundTrip({ url, readOnly, update: { method: 'PATCH' } });
  });

  it('category metadata (the listed pair with the CategoryId the list is asked for)', async () => {
    const category = await createCategory(api, acme);
    expectStatus(
      await api.call({
        method: 'POST',
        url: `${CATALOG}/categorymetadata`,
        tenant: acme,
        body: { CategoryId: category.Id, Key: 'season', Value: 'summer' },
      }),
      201,
    );
    const url = `${CATALOG}/categorymetadata?categoryId=${category.Id}`;
    const listed = await api.call({ url, tenant: acme });
    const [pair] = listed.json<{ Key: string; Value: string }[]>();
    expectStatus(
      await api.call({
        method: 'PUT',
        url: `${CATALOG}/categorymetadata`,
        tenant: acme,
        body: { CategoryId: category.Id, ...pair },
      }),
      200,
    );
    expect((await api.call({ url, tenant: acme })).json()).toEqual(listed.json());
  });

  it('item (with prices, attributes, tags), by PUT, PUT /item and PATCH', async () => {
    const [brand, category, priceType, type, tag] = [
      await createBrand(api, acme),
      await createCategory(api, acme),
      await createPriceType(api, acme),
      await createAttributeType(api, acme),
      await createTag(api, acme, { Description: 'Tagged' }),
    ];
    const item = await createItem(api, acme, {
      SKU: unique('SKU'),
      BrandId: brand.Id,
      CategoryId: category.Id,
      Rating: 4.5,
      PublicWebLink: 'https://shop.example/item',
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 10, DiscountPrice: 8 }],
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Red' }],
      Tags: [{ Id: tag.Id }],
    });
    const url = `${CATALOG}/item/${item.Id}`;
    const readOnly = { LikeCount: 1000, DateAdded: OLD_DATE, DateModified: OLD_DATE };
    // Prices sent are the item's new prices: their rows, and so their PriceIds, are new.
    const moving = ['DateModified', 'Prices'];
    await expectRoundTrip({ url, readOnly, moving });
    await expectRoundTrip({ url, readOnly, moving, update: { url: `${CATALOG}/item` } });
    await expectRoundTrip({ url, readOnly, moving, update: { method: 'PATCH' } });
    const prices = (await api.call({ url, tenant: acme })).json<{ Prices: unknown[] }>().Prices;
    expect(prices).toEqual([
      expect.objectContaining({ PriceTypeId: priceType.Id, NormalPrice: 10, DiscountPrice: 8 }),
    ]);
  });

  it("item's prices", async () => {
    const priceType = await createPriceType(api, acme);
    const item = await createItem(api, acme, {
      Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 10, DiscountPrice: null }],
    });
    await expectRoundTrip({
      url: `${CATALOG}/items/${item.Id}/prices`,
      readOnly: { PriceId: 99999, PriceTypeSymbol: 'XXX' },
      moving: ['PriceId'],
    });
  });

  it("item's dynamic attributes", async () => {
    const type = await createAttributeType(api, acme);
    const item = await createItem(api, acme, {
      DynamicAttributes: [{ TypeId: type.Id, Value: 'Blue' }],
    });
    await expectRoundTrip({
      url: `${CATALOG}/items/${item.Id}/dynamicattributes`,
      readOnly: { TypeName: 'Another type' },
    });
  });

  it.each(['items', 'brands', 'categories'] as const)(
    'asset relation of %s (a listed relation sent back)',
    async (entity) => {
      const id =
        entity === 'items'
          ? (await createItem(api, acme)).Id
          : entity === 'brands'
            ? (await createBrand(api, acme)).Id
            : (await createCategory(api, acme)).Id;
      const asset = await createAsset(api, acme, pdf(), 'application/pdf', 'manual.pdf');
      const url = `${CATALOG}/${entity}/${id}/document`;
      expectStatus(
        await api.call({
          method: 'POST',
          url: `${url}?assetId=${asset.Id}&isDefault=true`,
          tenant: acme,
        }),
        201,
      );
      await expectRoundTrip({
        url,
        sent: (listed) => (listed as Record<string, unknown>[])[0]!,
        readOnly: {
          AssetUrl: 'https://elsewhere.example/file',
          MimeType: 'text/plain',
          FileName: 'other.txt',
        },
      });
    },
  );

  it('store', async () => {
    const store = await createStore(api, acme);
    await expectRoundTrip({ url: `${MANAGEMENT}/store/${store.Id}` });
  });

  it('device type', async () => {
    const type = await createDeviceType(api, acme);
    await expectRoundTrip({ url: `${MANAGEMENT}/devicetypes/${type.Id}` });
  });

  it('physical device (in a store)', async () => {
    const store = await createStore(api, acme);
    const device = await createPhysicalDevice(api, acme, store.Id);
    await expectRoundTrip({
      url: `${MANAGEMENT}/physicaldevices/${device.DeviceId}`,
      readOnly: { StoreName: 'Another store' },
    });
  });

  it('logical device (management, with a type, an expiration date and metadata)', async () => {
    const physical = await createPhysicalDevice(api, acme, null);
    const type = await createDeviceType(api, acme);
    const logical = await createLogicalDevice(api, acme, physical.DeviceId, {
      DeviceTypeId: type.Id,
      ExpirationDate: daysFromNow(30),
      Metadata: [{ Key: 'screen', Value: 'large' }],
    });
    await expectRoundTrip({
      url: `${MANAGEMENT}/physicaldevices/${physical.DeviceId}/devices/${logical.DeviceId}`,
      readOnly: { DeviceTypeDescription: 'Another type' },
    });
  });

  it('logical device that has expired (its past ExpirationDate sent back)', async () => {
    const physical = await createPhysicalDevice(api, acme, null);
    const logical = await createLogicalDevice(api, acme, physical.DeviceId, {
      ExpirationDate: daysFromNow(1),
    });
    await api.database.handle.query(
      "update logical_devices set expiration_date = now() - interval '1 day' where id = $1",
      [logical.DeviceId],
    );
    const url = `${MANAGEMENT}/physicaldevices/${physical.DeviceId}/devices/${logical.DeviceId}`;
    await expectRoundTrip({ url });
    const fetched = (await api.call({ url, tenant: acme })).json<{ ExpirationDate: string }>();
    expectError(
      await api.call({
        method: 'PUT',
        url,
        tenant: acme,
        body: { ...fetched, ExpirationDate: daysFromNow(-2) },
      }),
      400,
      'ExpirationDateInPast',
    );
  });

  it('logical device metadata (a listed pair sent back to its key)', async () => {
    const physical = await createPhysicalDevice(api, acme, null);
    const logical = await createLogicalDevice(api, acme, physical.DeviceId, {
      Metadata: [{ Key: 'screen', Value: 'large' }],
    });
    const devices = `${MANAGEMENT}/physicaldevices/${physical.DeviceId}/devices`;
    await expectRoundTrip({
      url: `${devices}/${logical.DeviceId}/metadata`,
      update: { url: `${devices}/${logical.DeviceId}/metadata/screen` },
      sent: (listed) => (listed as Record<string, unknown>[])[0]!,
    });
  });

  it('logical device (device-facing: the Data of the fetch sent back by PATCH)', async () => {
    const store = await createStore(api, acme);
    const device = await deviceInStore(api, acme, store.Id);
    const type = await createDeviceType(api, acme);
    const registered = await api.call({
      method: 'POST',
      url: '/company/logicaldevices',
      tenant: acme,
      token: device.token,
      body: {
        DeviceId: uniqueId('ld'),
        Description: 'Shelf screen',
        DeviceTypeId: type.Id,
        ExpirationDate: daysFromNow(10),
        Metadata: [{ Key: 'aisle', Value: '7' }],
      },
    });
    expectStatus(registered, 201);
    const { DeviceId } = registered.json<{ Data: { DeviceId: string } }>().Data;
    await expectRoundTrip({
      url: `/company/logicaldevices/${DeviceId}`,
      update: { method: 'PATCH' },
      token: device.token,
      enveloped: true,
      readOnly: { DeviceTypeDescription: 'Another type' },
    });
  });

  it('analytics settings', async () => {
    expectStatus(
      await api.call({
        method: 'PUT',
        url: '/management/configuration/analytics',
        tenant: acme,
        body: { TimeZone: 'Europe/Istanbul' },
      }),
      200,
    );
    await expectRoundTrip({ url: '/management/configuration/analytics' });
  });

  it('trending action types', async () => {
    await expectRoundTrip({ url: '/management/configuration/trendingactiontypes' });
  });

  it('app', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: unique('App'), Description: 'Kiosk app', ApplicationTypeId: 2 },
    });
    expectStatus(created, 201);
    const { ApplicationId } = created.json<{ ApplicationId: string }>();
    await expectRoundTrip({
      url: `/management/oauth/apps/${ApplicationId}`,
      readOnly: {
        ApplicationSecret: 'not-the-secret',
        IsPredefined: true,
        ApplicationTypeDescription: 'Another type',
        CreatedDate: OLD_DATE,
      },
    });
  });

  it('the predefined (bootstrap) app', async () => {
    await expectRoundTrip({ url: `/management/oauth/apps/${acme.appId}` });
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
        Roles: [{ Id: 'catalog-editor' }, { Id: 'analyst' }],
      },
    });
    expectStatus(created, 201);
    const { Id } = created.json<{ Id: string }>();
    await expectRoundTrip({ url: `/management/security/members/${Id}` });
  });

  it('webhook subscription', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      // A type no test here records, so that nothing is delivered.
      body: {
        Url: 'https://hooks.example.com/omni',
        EventTypes: ['integration_endpoint.deleted'],
        Description: 'ERP sync',
        OwnerEmail: 'ops@acme.example',
      },
    });
    expectStatus(created, 201);
    const { Id } = created.json<{ Id: number }>();
    await expectRoundTrip({
      url: `/management/webhooks/${Id}`,
      moving: ['ModifiedDate'],
      readOnly: {
        DisabledReason: 'Failing',
        FailingSince: OLD_DATE,
        Secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        PreviousSecretExpiresDate: OLD_DATE,
        CreatedDate: OLD_DATE,
        ModifiedDate: OLD_DATE,
      },
    });
  });
});
