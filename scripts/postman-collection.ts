// `npm run postman:generate`: the Postman collection postman/omnichannel.postman_collection.json,
// made from openapi.json by openapi-to-postmanv2 and then made runnable against a server fresh
// from its first start (the demo tenant and its management app, nothing else):
// - a collection-level pre-request script gets the tokens (client credentials of the app in
//   `clientId`/`clientSecret`, and for the device-facing routes an identity token of the Device
//   app the collection creates) and sets a fresh `Idempotency-Key` on every write;
// - the requests run in the order of RUN below, creating what the later ones name: path values
//   are collection variables that the creating request's test script sets from its answer, and
//   bodies are examples that the server accepts at that point; everything made is deleted at the
//   end ("Clean up"), so the collection runs again on the same tenant;
// - each request's test script checks that its status is the one its example expects (one of
//   the operation's documented statuses; the generator refuses any other).
// The converter's own request values (faked bodies, `string` placeholders in headers) are
// replaced; its names, descriptions, URLs and documented query parameters are kept.
// test/clients/postman-newman.test.ts runs the collection with newman and checks that the
// committed file is what this script writes.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Converter from 'openapi-to-postmanv2';
import * as prettier from 'prettier';

const ROOT = path.resolve(import.meta.dirname, '..');
export const COLLECTION_FILE = path.join(ROOT, 'postman/omnichannel.postman_collection.json');

/** A 1×1 PNG (the API checks an image's bytes against its MIME type). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A number-valued variable in a JSON body: written `{{name}}` without quotes. */
const num = (name: string) => `#{{${name}}}#`;

/** What the run does with one operation of the document. */
interface Step {
  /** `METHOD /document/path`. */
  op: string;
  /** The request's name when an operation runs more than once (names are unique). */
  name?: string;
  /** Path values, when not the variable named after the parameter (pathVariable). */
  path?: Record<string, string>;
  /** Query parameters (replacing the converter's), values may name variables. */
  query?: Record<string, string>;
  /** The JSON body (`num(...)` for number variables), or a raw text body with its media type. */
  body?: unknown;
  raw?: { text: string; contentType: string };
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The statuses the example expects, when not the operation's documented 2xx ones. */
  expect?: number[];
  /** Variables set from a successful answer: name → JavaScript expression over `body`. */
  capture?: Record<string, string>;
  /** Repeats the request (up to 40 times, 250 ms apart) until this expression over `body` holds. */
  until?: string;
  /** Which token the request carries (default: the management app's). */
  auth?: 'device' | 'app-basic' | 'none';
}

const hook = `{{webhookUrl}}`;

/** The run, folder by folder, in order. Every operation of the document appears at least once. */
const RUN: { folder: string; steps: Step[] }[] = [
  {
    folder: 'Operator',
    steps: [
      { op: 'GET /health/live', auth: 'none' },
      { op: 'GET /health/ready', auth: 'none' },
    ],
  },
  {
    folder: 'OAuth',
    steps: [
      {
        op: 'POST /oauth/token',
        auth: 'app-basic',
        body: { form: { grant_type: 'client_credentials', scope: 'private' } },
        capture: { revocableToken: 'body.access_token' },
      },
      {
        op: 'POST /oauth/introspect',
        auth: 'app-basic',
        body: { form: { token: '{{revocableToken}}' } },
      },
      { op: 'GET /.well-known/oauth-authorization-server', auth: 'none' },
      { op: 'GET /.well-known/jwks.json', auth: 'none' },
    ],
  },
  {
    folder: 'Webhooks',
    steps: [
      {
        op: 'POST /management/webhooks',
        body: { Url: hook, EventTypes: ['brand.*'], Description: 'Brand changes' },
        capture: { webhookId: 'body.Id' },
      },
      { op: 'GET /management/webhooks' },
      { op: 'GET /management/webhooks/{id}' },
      {
        op: 'PUT /management/webhooks/{id}',
        body: { Url: hook, EventTypes: ['brand.*'], Description: 'Brands, every change' },
      },
      { op: 'POST /management/webhooks/{id}/secret' },
    ],
  },
  {
    folder: 'Apps',
    steps: [
      {
        op: 'POST /management/oauth/apps',
        body: { Name: 'Kiosk fleet', Description: 'In-store kiosks', ApplicationTypeId: 4 },
        capture: { applicationId: 'body.ApplicationId', deviceAppSecret: 'body.ApplicationSecret' },
      },
      { op: 'GET /management/oauth/apps' },
      { op: 'GET /management/oauth/apps/{applicationId}' },
      {
        op: 'PUT /management/oauth/apps/{applicationId}',
        body: { Name: 'Kiosks', Description: 'In-store kiosks', ApplicationTypeId: 4 },
      },
      {
        op: 'POST /management/oauth/apps/{applicationId}/secret',
        capture: { deviceAppSecret: 'body.ApplicationSecret' },
      },
    ],
  },
  {
    folder: 'Members',
    steps: [
      {
        op: 'POST /management/security/members/invitations',
        body: { Email: 'grace@example.com', Name: 'Grace', Roles: [{ Id: 'analyst' }] },
        capture: { invitationId: 'body.Id' },
      },
      { op: 'GET /management/security/members/invitations' },
      { op: 'GET /management/security/members/invitations/{id}' },
      { op: 'POST /management/security/members/invitations/{id}/resend' },
      {
        op: 'POST /management/security/members',
        body: {
          Username: 'ada',
          Name: 'Ada',
          Password: 'correct horse battery staple',
          Roles: [{ Id: 'catalog-editor' }],
        },
        capture: { memberId: 'body.Id' },
      },
      { op: 'GET /management/security/members' },
      { op: 'GET /management/security/members/{id}' },
      {
        op: 'PUT /management/security/members/{id}',
        body: { Username: 'ada', Name: 'Ada L.', Roles: [{ Id: 'catalog-editor' }] },
      },
      { op: 'GET /management/security/roles' },
    ],
  },
  {
    // The browser's pages: without a browser's sign-in (cookies, a one-time code) they answer
    // their documented refusals, which is what these examples expect.
    folder: 'Sign-in',
    steps: [
      {
        op: 'GET /oauth/authorize',
        auth: 'none',
        query: { response_type: 'code', client_id: 'console' },
        expect: [400],
      },
      {
        op: 'POST /oauth/authorize',
        auth: 'none',
        body: { form: { response_type: 'code', client_id: 'console' } },
        expect: [400],
      },
      {
        op: 'GET /oauth/invitation',
        auth: 'none',
        query: { token: 'unknown' },
        expect: [200, 404],
      },
      {
        op: 'POST /oauth/invitation',
        auth: 'none',
        body: { form: { token: 'unknown' } },
        expect: [404],
      },
    ],
  },
  {
    folder: 'Price types',
    steps: [
      {
        op: 'POST /private/catalog/pricetype',
        body: { Description: 'Euro', PriceTypeSymbol: 'EUR' },
        capture: { priceTypeId: 'body.Id' },
      },
      { op: 'GET /private/catalog/pricetype/{id}' },
      {
        op: 'PUT /private/catalog/pricetype/{id}',
        body: { Description: 'Euro (EU)', PriceTypeSymbol: 'EUR' },
      },
      { op: 'GET /private/catalog/pricetypes' },
    ],
  },
  {
    folder: 'Brands',
    steps: [
      {
        op: 'POST /private/catalog/brand',
        body: { Name: 'Acme' },
        capture: { brandId: 'body.Id' },
      },
      { op: 'GET /private/catalog/brand/{id}' },
      { op: 'PUT /private/catalog/brand/{id}', body: { Name: 'Acme Corp' } },
      {
        op: 'POST /private/catalog/brand/{id}/history/{version}/restore',
        path: { version: '1' },
        body: { ExpectedVersion: 2 },
      },
      { op: 'GET /private/catalog/brands' },
    ],
  },
  {
    folder: 'Categories',
    steps: [
      {
        op: 'POST /private/catalog/category',
        body: { Name: 'Shoes' },
        capture: { categoryId: 'body.Id' },
      },
      { op: 'GET /private/catalog/category/{id}' },
      {
        op: 'PUT /private/catalog/category/{id}',
        body: { Name: 'Shoes', ShortDescription: 'Running and casual' },
      },
      {
        op: 'PATCH /private/catalog/category/{id}',
        body: { LongDescription: 'Every shoe we sell.' },
      },
      {
        op: 'POST /private/catalog/category/{id}/history/{version}/restore',
        path: { version: '2' },
        body: {},
      },
      { op: 'GET /private/catalog/categories' },
      {
        op: 'POST /private/catalog/categorymetadata',
        body: { CategoryId: num('categoryId'), Key: 'season', Value: 'summer' },
      },
      {
        op: 'PUT /private/catalog/categorymetadata',
        body: { CategoryId: num('categoryId'), Key: 'season', Value: 'all' },
      },
      { op: 'GET /private/catalog/categorymetadata', query: { categoryId: '{{categoryId}}' } },
    ],
  },
  {
    folder: 'Tags',
    steps: [
      { op: 'POST /private/catalog/tag', body: { Name: 'summer' }, capture: { tagId: 'body.Id' } },
      { op: 'GET /private/catalog/tag/{id}' },
      { op: 'PUT /private/catalog/tag/{id}', body: { Name: 'summer-sale' } },
      { op: 'GET /private/catalog/tags' },
    ],
  },
  {
    folder: 'Dynamic attribute types',
    steps: [
      {
        op: 'POST /private/catalog/dynamicattributetypes',
        body: { Description: 'Colour' },
        capture: { attributeTypeId: 'body.Id' },
      },
      { op: 'GET /private/catalog/dynamicattributetypes' },
      { op: 'GET /private/catalog/dynamicattributetypes/{id}' },
      { op: 'PUT /private/catalog/dynamicattributetypes/{id}', body: { Description: 'Color' } },
      { op: 'PATCH /private/catalog/dynamicattributetypes/{id}', body: { Description: 'Colour' } },
      { op: 'GET /private/catalog/dynamicattributetypes/{id}/dynamicattributes' },
    ],
  },
  {
    folder: 'Items',
    steps: [
      {
        op: 'POST /private/catalog/item',
        body: {
          Title: 'Runner',
          SKU: 'RUN-1',
          BrandId: num('brandId'),
          CategoryId: num('categoryId'),
          Prices: [{ NormalPrice: 99.9, PriceTypeId: num('priceTypeId') }],
          DynamicAttributes: [{ TypeId: num('attributeTypeId'), Value: 'Red' }],
        },
        capture: { itemId: 'body.Id' },
      },
      {
        op: 'POST /private/catalog/item',
        name: 'Create a second item (a variant)',
        body: { Title: 'Runner (blue)', SKU: 'RUN-2' },
        capture: { variantItemId: 'body.Id' },
      },
      {
        op: 'POST /private/catalog/item',
        name: 'Create a third item',
        body: { Title: 'Walker', SKU: 'WALK-1' },
        capture: { otherItemId: 'body.Id' },
      },
      { op: 'GET /private/catalog/item/{id}' },
      {
        op: 'PUT /private/catalog/item/{id}',
        body: { Title: 'Runner', SKU: 'RUN-1', Model: 'R-2025', BrandId: num('brandId') },
      },
      { op: 'PATCH /private/catalog/item/{id}', body: { ShortDescription: 'Light and fast' } },
      {
        op: 'PUT /private/catalog/item',
        body: { Id: num('itemId'), Title: 'Runner', SKU: 'RUN-1', InStock: true },
      },
      { op: 'PATCH /private/catalog/item', body: { Id: num('itemId'), Rating: 4.5 } },
      {
        op: 'POST /private/catalog/item/{id}/history/{version}/restore',
        path: { version: '1' },
        body: {},
      },
      { op: 'GET /private/catalog/items' },
      {
        op: 'POST /private/catalog/items',
        body: { Query: 'runner', IncludeStaticNavigation: true, IncludeDynamicNavigation: true },
      },
      { op: 'GET /private/catalog/items/search', query: { q: 'runner', take: '10' } },
      { op: 'POST /private/catalog/items/{id}/group', body: [num('variantItemId')] },
      {
        op: 'POST /private/catalog/items/{id}/move',
        path: { id: '{{otherItemId}}' },
        body: [num('variantItemId')],
      },
      { op: 'POST /private/catalog/items/{id}/ungroup', path: { id: '{{otherItemId}}' } },
      { op: 'GET /private/catalog/items/{id}/prices' },
      {
        op: 'PUT /private/catalog/items/{id}/prices',
        body: [{ NormalPrice: 89.9, DiscountPrice: 79.9, PriceTypeId: num('priceTypeId') }],
      },
      { op: 'GET /private/catalog/items/{id}/dynamicattributes' },
      {
        op: 'PUT /private/catalog/items/{id}/dynamicattributes',
        body: [{ TypeId: num('attributeTypeId'), Value: 'Blue' }],
      },
      {
        op: 'POST /private/catalog/itemtagmapping',
        body: { ItemId: num('itemId'), TagId: num('tagId') },
      },
      { op: 'GET /private/catalog/itemtagmappings', query: { tagId: '{{tagId}}' } },
    ],
  },
  {
    folder: 'Assets',
    steps: [
      {
        op: 'POST /management/storage/asset',
        body: { FileName: 'runner.png', MimeType: 'image/png', FileBody: PNG_BASE64 },
        capture: { imageAssetId: 'body.Id', blobKey: "body.AssetUrl.split('/').pop()" },
      },
      {
        op: 'POST /management/storage/asset/raw',
        query: { fileName: 'clip.mp4' },
        raw: { text: 'not really a video', contentType: 'video/mp4' },
        capture: { videoAssetId: 'body.Id' },
      },
      {
        op: 'POST /management/storage/asset/raw',
        name: 'Upload a document',
        query: { fileName: 'manual.pdf' },
        raw: { text: '%PDF-1.4 manual', contentType: 'application/pdf' },
        capture: { documentAssetId: 'body.Id' },
      },
      { op: 'GET /management/storage/asset/{id}', path: { id: '{{imageAssetId}}' } },
      { op: 'GET /management/storage/assets' },
      { op: 'GET /storage/blobs/{key}', auth: 'none' },
      { op: 'HEAD /storage/blobs/{key}', auth: 'none' },
    ],
  },
  {
    folder: 'Asset relations',
    steps: ['items', 'brands', 'categories'].flatMap((entity) =>
      (['image', 'video', 'document'] as const).flatMap((kind): Step[] => [
        {
          op: `POST /private/catalog/${entity}/{id}/${kind}`,
          query: { assetId: `{{${kind}AssetId}}` },
        },
        { op: `GET /private/catalog/${entity}/{id}/${kind}` },
        {
          op: `PUT /private/catalog/${entity}/{id}/${kind}`,
          body: { AssetId: num(`${kind}AssetId`), IsDefault: true },
        },
      ]),
    ),
  },
  {
    folder: 'Catalog import and export',
    steps: [
      {
        op: 'POST /private/catalog/exports',
        body: { Format: 'jsonl' },
        capture: { exportId: 'body.Id' },
      },
      { op: 'GET /private/catalog/exports' },
      { op: 'GET /private/catalog/exports/{id}' },
      {
        op: 'POST /private/catalog/imports',
        query: { format: 'jsonl', createMissing: 'true' },
        raw: {
          text: '{"SKU":"IMP-1","Title":"Imported sandal"}\n',
          contentType: 'application/x-ndjson',
        },
        capture: { importId: 'body.Id' },
      },
      { op: 'GET /private/catalog/imports' },
      {
        op: 'GET /private/catalog/imports/{id}',
        until: "['Succeeded', 'Failed', 'Cancelled'].includes(body.State)",
      },
      {
        op: 'GET /private/catalog/imports/{id}/results',
        headers: { Accept: 'application/x-ndjson' },
        capture: {
          importedItemId:
            "(typeof body === 'string' ? JSON.parse(body.split('\\n')[0]) : body).ItemId",
        },
      },
      // An import that has ended cannot be cancelled: 409, as documented.
      { op: 'POST /private/catalog/imports/{id}/cancel', expect: [409] },
    ],
  },
  {
    folder: 'Integration endpoint',
    steps: [
      {
        op: 'POST /management/integration/endpoint',
        body: { ServiceName: 'demo-shop', ServiceTier: 0, AdminMail: 'ops@example.com' },
      },
      { op: 'GET /management/integration/endpoint', until: 'body.Status === 2' },
      { op: 'GET /management/integration/endpoint/subscriptionkey' },
      { op: 'POST /management/integration/endpoint/subscriptionkey' },
    ],
  },
  {
    folder: 'Company: stores',
    steps: [
      {
        op: 'POST /management/company/store',
        body: { Name: 'Kadikoy', Location: { Longitude: 29.03, Latitude: 40.99 } },
        capture: { storeId: 'body.Id' },
      },
      { op: 'GET /management/company/store/{id}' },
      {
        op: 'PUT /management/company/store/{id}',
        body: {
          Name: 'Kadikoy',
          Address: 'Moda Cd. 1',
          Location: { Longitude: 29.03, Latitude: 40.99 },
        },
      },
      { op: 'GET /management/company/stores' },
    ],
  },
  {
    folder: 'Company: device types',
    steps: [
      {
        op: 'POST /management/company/devicetypes',
        body: { Description: 'Kiosk' },
        capture: { deviceTypeId: 'body.Id' },
      },
      { op: 'GET /management/company/devicetypes' },
      { op: 'GET /management/company/devicetypes/{id}' },
      { op: 'PUT /management/company/devicetypes/{id}', body: { Description: 'Kiosk (floor)' } },
    ],
  },
  {
    folder: 'Company: physical devices',
    steps: [
      {
        op: 'POST /management/company/physicaldevices',
        body: { DeviceId: 'pd-1', Description: 'Entrance', StoreId: num('storeId') },
        capture: { physicalDeviceId: 'body.DeviceId' },
      },
      {
        op: 'GET /management/company/physicaldevices',
        query: { hasStoreRelation: 'true' },
      },
      { op: 'GET /management/company/physicaldevices/{physicalDeviceId}' },
      {
        op: 'PUT /management/company/physicaldevices/{physicalDeviceId}',
        body: { DeviceId: 'pd-1', Description: 'Entrance, left', StoreId: num('storeId') },
      },
      {
        op: 'POST /management/company/physicaldevices/{physicalDeviceId}/devices',
        body: { DeviceId: 'screen-1', Description: 'Screen', DeviceTypeId: num('deviceTypeId') },
        capture: { deviceId: 'body.DeviceId' },
      },
      { op: 'GET /management/company/physicaldevices/{physicalDeviceId}/devices' },
      { op: 'GET /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}' },
      {
        op: 'PUT /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}',
        body: {
          DeviceId: 'screen-1',
          Description: 'Screen, left',
          DeviceTypeId: num('deviceTypeId'),
        },
      },
      {
        op: 'POST /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata',
        body: { Key: 'floor', Value: '1' },
        capture: { metadataKey: 'body.Key' },
      },
      {
        op: 'PUT /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata/{key}',
        body: { Key: 'floor', Value: '2' },
      },
      {
        op: 'GET /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata',
      },
    ],
  },
  {
    // The device-facing routes, with an identity token of the Device app made under Apps,
    // bound to the physical device pd-1.
    folder: 'Company: logical devices (device-facing)',
    steps: [
      { op: 'GET /company/devicetypes', auth: 'device' },
      {
        op: 'POST /company/logicaldevices',
        auth: 'device',
        body: {
          DeviceId: 'tablet-1',
          Description: 'Tablet',
          DeviceTypeId: num('deviceTypeId'),
          Metadata: [{ Key: 'lang', Value: 'tr' }],
        },
        capture: { logicalDeviceId: 'body.Data.DeviceId' },
      },
      { op: 'GET /company/logicaldevices/{deviceId}', auth: 'device' },
      {
        op: 'PATCH /company/logicaldevices/{deviceId}',
        auth: 'device',
        body: { Description: 'Tablet (2)' },
      },
      {
        op: 'GET /company/stores/logicaldevices',
        auth: 'device',
        query: { metadataKey: 'lang', metadataValue: 'tr', includeMetadata: 'true' },
      },
      {
        op: 'GET /company/stores/{location}/logicaldevices',
        auth: 'device',
        query: { includeMetadata: 'true' },
      },
    ],
  },
  {
    folder: 'Analytics',
    steps: [
      {
        op: 'POST /analytics/logs',
        auth: 'device',
        body: [
          { Counter: 'ItemView', ItemId: num('itemId') },
          { Counter: 'ItemView', ItemId: num('itemId') },
        ],
      },
      {
        op: 'GET /private/analytics/servercounters/{counter}/logs',
        query: { OADate: '{{today}}', take: '10' },
      },
      {
        op: 'GET /private/analytics/servercounters/{counter}/summary/{period}',
        query: { startOADate: '{{today}}', endOADate: '{{today}}' },
      },
      {
        op: 'GET /private/analytics/summary/{period}',
        query: { startOADate: '{{today}}', endOADate: '{{today}}' },
      },
      { op: 'GET /private/analytics/trendingitems', query: { take: '5' } },
      {
        op: 'GET /management/configuration/trendingactiontypes',
        capture: { trendingActionTypes: 'JSON.stringify(body)' },
      },
      {
        op: 'PUT /management/configuration/trendingactiontypes',
        raw: { text: '{{trendingActionTypes}}', contentType: 'application/json' },
      },
      {
        op: 'GET /management/configuration/analytics',
        capture: { analyticsSettings: 'JSON.stringify(body)' },
      },
      {
        op: 'PUT /management/configuration/analytics',
        raw: { text: '{{analyticsSettings}}', contentType: 'application/json' },
      },
      { op: 'POST /management/analytics/trending', query: { date: '{{todayDate}}' } },
    ],
  },
  {
    folder: 'Change history',
    steps: [
      { op: 'GET /management/history/export' },
      {
        op: 'GET /management/history/settings',
        capture: { historySettings: 'JSON.stringify(body)' },
      },
      {
        op: 'PUT /management/history/settings',
        raw: { text: '{{historySettings}}', contentType: 'application/json' },
      },
    ],
  },
  {
    folder: 'Webhook deliveries and events',
    steps: [
      {
        op: 'GET /management/webhooks/{id}/deliveries',
        until: 'body.Results.length > 0',
        capture: { deliveryId: 'body.Results[0].Id' },
      },
      { op: 'GET /management/webhooks/{id}/deliveries/{deliveryId}' },
      { op: 'POST /management/webhooks/{id}/deliveries/{deliveryId}/replay' },
      {
        op: 'POST /management/webhooks/{id}/replay',
        body: { From: '{{runStartedAt}}', To: '{{$isoTimestamp}}' },
      },
      { op: 'GET /management/events', query: { take: '100' } },
    ],
  },
  {
    // A kind that records no entries yet answers an empty page, and 404 for a version.
    folder: 'Change history',
    steps: [
      { op: 'GET /management/history', query: { Take: '50' } },
      { op: 'GET /private/catalog/item/{id}/history' },
      { op: 'GET /private/catalog/item/{id}/history/{version}', path: { version: '1' } },
      { op: 'GET /private/catalog/brand/{id}/history' },
      { op: 'GET /private/catalog/brand/{id}/history/{version}', path: { version: '1' } },
      { op: 'GET /private/catalog/category/{id}/history' },
      { op: 'GET /private/catalog/category/{id}/history/{version}', path: { version: '1' } },
      { op: 'GET /private/catalog/tag/{id}/history' },
      { op: 'GET /private/catalog/tag/{id}/history/{version}', path: { version: '1' } },
      { op: 'GET /management/storage/asset/{id}/history', path: { id: '{{imageAssetId}}' } },
      {
        op: 'GET /management/storage/asset/{id}/history/{version}',
        path: { id: '{{imageAssetId}}', version: '1' },
      },
      { op: 'GET /management/company/store/{id}/history' },
      { op: 'GET /management/company/store/{id}/history/{version}', path: { version: '1' } },
      { op: 'GET /management/company/physicaldevices/{physicalDeviceId}/history' },
      {
        op: 'GET /management/company/physicaldevices/{physicalDeviceId}/history/{version}',
        path: { version: '1' },
      },
      {
        op: 'GET /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/history',
      },
      {
        op: 'GET /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /management/oauth/apps/{applicationId}/history' },
      {
        op: 'GET /management/oauth/apps/{applicationId}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /management/integration/endpoint/history' },
      { op: 'GET /management/integration/endpoint/history/{version}', path: { version: '1' } },
      { op: 'GET /private/catalog/dynamicattributetypes/{id}/history' },
      {
        op: 'GET /private/catalog/dynamicattributetypes/{id}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /private/catalog/pricetype/{id}/history' },
      {
        op: 'GET /private/catalog/pricetype/{id}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /management/webhooks/{id}/history' },
      {
        op: 'GET /management/webhooks/{id}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /management/security/members/{id}/history' },
      {
        op: 'GET /management/security/members/{id}/history/{version}',
        path: { version: '1' },
      },
      { op: 'GET /management/security/members/invitations/{id}/history' },
      {
        op: 'GET /management/security/members/invitations/{id}/history/{version}',
        path: { version: '1' },
      },
    ],
  },
  {
    folder: 'Clean up',
    steps: [
      { op: 'DELETE /company/logicaldevices/{deviceId}', auth: 'device' },
      {
        op: 'DELETE /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata/{key}',
      },
      {
        op: 'DELETE /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}/metadata',
      },
      { op: 'DELETE /management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}' },
      { op: 'DELETE /management/company/physicaldevices/{physicalDeviceId}' },
      { op: 'DELETE /management/company/devicetypes/{id}' },
      { op: 'DELETE /management/company/store/{id}' },
      { op: 'DELETE /management/integration/endpoint' },
      ...['items', 'brands', 'categories'].flatMap((entity) =>
        (['image', 'video', 'document'] as const).map((kind): Step => ({
          op: `DELETE /private/catalog/${entity}/{id}/${kind}`,
          query: { assetId: `{{${kind}AssetId}}` },
        })),
      ),
      {
        op: 'DELETE /private/catalog/itemtagmapping',
        query: { itemId: '{{itemId}}', tagId: '{{tagId}}' },
      },
      {
        op: 'DELETE /private/catalog/categorymetadata',
        query: { categoryId: '{{categoryId}}', metadataKey: 'season' },
      },
      { op: 'DELETE /private/catalog/item/{id}' },
      {
        op: 'DELETE /private/catalog/item/{id}',
        name: 'Delete the second item',
        path: { id: '{{variantItemId}}' },
      },
      {
        op: 'DELETE /private/catalog/item/{id}',
        name: 'Delete the third item',
        path: { id: '{{otherItemId}}' },
      },
      {
        op: 'DELETE /private/catalog/item/{id}',
        name: 'Delete the imported item',
        path: { id: '{{importedItemId}}' },
      },
      { op: 'DELETE /private/catalog/brand/{id}' },
      { op: 'DELETE /private/catalog/tag/{id}' },
      { op: 'DELETE /private/catalog/pricetype/{id}' },
      { op: 'DELETE /private/catalog/dynamicattributetypes/{id}' },
      { op: 'DELETE /private/catalog/category/{id}' },
      ...(['image', 'video', 'document'] as const).map((kind): Step => ({
        op: 'DELETE /management/storage/asset/{id}',
        ...(kind === 'image' ? {} : { name: `Delete the ${kind} asset` }),
        path: { id: `{{${kind}AssetId}}` },
        query: { force: 'true' },
      })),
      { op: 'DELETE /management/security/members/invitations/{id}' },
      { op: 'DELETE /management/security/members/{id}' },
      { op: 'DELETE /management/oauth/apps/{applicationId}' },
      { op: 'DELETE /management/webhooks/{id}' },
      {
        op: 'POST /oauth/revoke',
        auth: 'app-basic',
        body: { form: { token: '{{revocableToken}}' } },
      },
    ],
  },
];

/** The collection variable a path parameter takes, named after what it identifies. */
function pathVariable(documentPath: string, param: string): string {
  const segments = documentPath.split('/');
  const before = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  if (param === 'deviceId' && documentPath.startsWith('/company/logicaldevices'))
    return 'logicalDeviceId';
  if (param === 'key') return before === 'blobs' ? 'blobKey' : 'metadataKey';
  if (param !== 'id') return param;
  const byCollection: Record<string, string> = {
    invitations: 'invitationId',
    members: 'memberId',
    item: 'itemId',
    items: 'itemId',
    dynamicattributetypes: 'attributeTypeId',
    brand: 'brandId',
    brands: 'brandId',
    category: 'categoryId',
    categories: 'categoryId',
    tag: 'tagId',
    pricetype: 'priceTypeId',
    imports: 'importId',
    exports: 'exportId',
    asset: 'imageAssetId',
    store: 'storeId',
    devicetypes: 'deviceTypeId',
    webhooks: 'webhookId',
  };
  const name = byCollection[before];
  if (!name) throw new Error(`no variable for {${param}} in ${documentPath}`);
  return name;
}

/** Variables the requests name, with their values before the run sets them. */
const VARIABLES: Record<string, string> = {
  baseUrl: 'http://demo.localhost:8080',
  clientId: '',
  clientSecret: '',
  webhookUrl: 'https://hooks.example.com/omnichannel',
  counter: 'ItemView',
  period: 'daily',
  location: '29.03;40.99',
};

/**
 * The collection's pre-request script: a fresh Idempotency-Key on every write, the management
 * app's token (client credentials of clientId/clientSecret) and, for the device-facing routes,
 * the Device app's identity token for the physical device; tokens are kept until a minute before
 * they expire.
 */
const PRE_REQUEST = String.raw`// Written by scripts/postman-collection.ts (npm run postman:generate).
if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(pm.request.method))
  pm.request.headers.upsert({ key: 'Idempotency-Key', value: pm.variables.replaceIn('{{$guid}}') });
if (!pm.collectionVariables.get('runStartedAt')) {
  const now = new Date();
  pm.collectionVariables.set('runStartedAt', now.toISOString());
  pm.collectionVariables.set('todayDate', now.toISOString().slice(0, 10));
  // OLE Automation date of today (days since 1899-12-30), as the analytics routes take it.
  pm.collectionVariables.set('today', String(Math.floor(now.getTime() / 86400000) + 25569));
}
const auth = pm.request.auth ? pm.request.auth.type : 'inherit';
const device = auth === 'bearer' && JSON.stringify(pm.request.auth.toJSON()).includes('deviceToken');
if (auth === 'inherit' || device) {
  const prefix = device ? 'deviceToken' : 'accessToken';
  if (!pm.collectionVariables.get(prefix) || Date.now() > Number(pm.collectionVariables.get(prefix + 'ExpiresAt'))) {
    const id = device ? pm.collectionVariables.get('applicationId') : pm.variables.get('clientId');
    const secret = device ? pm.collectionVariables.get('deviceAppSecret') : pm.variables.get('clientSecret');
    const form = [{ key: 'grant_type', value: 'client_credentials' }];
    if (device) form.push({ key: 'physical_device_id', value: pm.collectionVariables.get('physicalDeviceId') });
    pm.sendRequest(
      {
        url: pm.variables.replaceIn('{{baseUrl}}/oauth/token'),
        method: 'POST',
        header: { Authorization: 'Basic ' + btoa(id + ':' + secret), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: { mode: 'urlencoded', urlencoded: form },
      },
      (error, answer) => {
        if (error || answer.code !== 200) {
          console.error('token request failed', error || answer.code + ' ' + answer.text());
          return;
        }
        const token = answer.json();
        pm.collectionVariables.set(prefix, token.access_token);
        pm.collectionVariables.set(prefix + 'ExpiresAt', String(Date.now() + (token.expires_in - 60) * 1000));
      },
    );
  }
}
`;

/** A request's test script: its expected status, then what it captures or waits for. */
function testScript(step: Step, name: string, expected: number[]): string {
  const lines = [
    `pm.test('answers ${expected.join(' or ')}', () => pm.expect(pm.response.code).to.be.oneOf(${JSON.stringify(expected)}));`,
  ];
  if (step.capture || step.until) {
    lines.push(
      `let body; try { body = pm.response.json(); } catch { body = pm.response.text(); }`,
      `const ok = pm.response.code < 300;`,
    );
  }
  if (step.until) {
    lines.push(
      `const tries = Number(pm.collectionVariables.get('tries') || 0);`,
      `if (ok && !(${step.until}) && tries < 40) {`,
      `  pm.collectionVariables.set('tries', String(tries + 1));`,
      `  pm.execution.setNextRequest(${JSON.stringify(name)});`,
      `  setTimeout(() => {}, 250);`,
      `} else {`,
      `  pm.collectionVariables.unset('tries');`,
      `  pm.test('reaches ${step.until.replaceAll("'", '"')}', () => pm.expect(${step.until}).to.be.true);`,
      `}`,
    );
  }
  for (const [variable, expression] of Object.entries(step.capture ?? {}))
    lines.push(`if (ok) pm.collectionVariables.set('${variable}', ${expression});`);
  return lines.join('\n');
}

// The parts of a Postman collection (v2.1) this script reads and writes.
interface PostmanHeader {
  key: string;
  value: string;
  disabled?: boolean;
  description?: unknown;
}
interface PostmanQuery {
  key: string | null;
  value: string | null;
  disabled?: boolean;
  description?: unknown;
}
interface PostmanRequest {
  name?: string;
  method: string;
  url: {
    path: string[];
    host: string[];
    query?: PostmanQuery[];
    variable?: { key: string; value: string; description?: unknown; type?: string }[];
  };
  header?: PostmanHeader[];
  body?: unknown;
  auth?: unknown;
  description?: unknown;
}
interface PostmanItem {
  name: string;
  request: PostmanRequest;
  event?: unknown[];
  item?: PostmanItem[];
}
interface Collection {
  info: Record<string, unknown>;
  item: PostmanItem[];
  event?: unknown[];
  variable?: unknown[];
  auth?: unknown;
}
interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}

function convert(text: string): Promise<Collection> {
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'string', data: text },
      {
        folderStrategy: 'Tags',
        parametersResolution: 'Example',
        enableOptionalParameters: false,
        includeAuthInfoInExample: false,
        requestNameSource: 'Fallback',
      },
      (error, result) => {
        if (error) return reject(error);
        if (!result.result) return reject(new Error(`conversion failed: ${result.reason}`));
        resolve(result.output[0]!.data as Collection);
      },
    );
  });
}

/** The converter's requests by `METHOD /document/path`. */
function requestsByOperation(collection: Collection): Map<string, PostmanItem> {
  const found = new Map<string, PostmanItem>();
  const visit = (items: PostmanItem[]) => {
    for (const item of items) {
      if (item.item) visit(item.item);
      else {
        const documentPath = `/${item.request.url.path.map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`;
        found.set(`${item.request.method} ${documentPath}`, item);
      }
    }
  };
  visit(collection.item);
  return found;
}

const ANONYMOUS = { type: 'noauth' };
const APP_BASIC = {
  type: 'basic',
  basic: [
    { key: 'username', value: '{{clientId}}', type: 'string' },
    { key: 'password', value: '{{clientSecret}}', type: 'string' },
  ],
};
const DEVICE_BEARER = {
  type: 'bearer',
  bearer: [{ key: 'token', value: '{{deviceToken}}', type: 'string' }],
};
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** One request of the run: the converter's, with the step's values. */
function requestOf(
  step: Step,
  converted: PostmanItem,
  document: OpenApiDocument,
  /** The names given before (a request's name is unique: setNextRequest goes by name). */
  taken: Set<string>,
): PostmanItem {
  const [method, documentPath] = step.op.split(' ') as [string, string];
  const documented = Object.keys(
    document.paths[documentPath]?.[method.toLowerCase()]?.responses ?? {},
  ).map(Number);
  const expected = step.expect ?? documented.filter((status) => status >= 200 && status < 300);
  for (const status of expected)
    if (!documented.includes(status))
      throw new Error(`${step.op}: ${status} is not among its documented statuses`);
  const name =
    step.name ?? (taken.has(converted.name) ? `${converted.name} (${step.op})` : converted.name);
  const source = converted.request;

  // Path values: the variable that holds what exists by then.
  const variable = (source.url.variable ?? [])
    .filter((v) => !['scheme', 'tenant', 'apiHost'].includes(v.key))
    .map((v) => ({
      ...v,
      value: step.path?.[v.key] ?? `{{${pathVariable(documentPath, v.key)}}}`,
    }));
  // Query: the documented parameters kept (disabled) for reference, the step's set.
  const query: PostmanQuery[] = (source.url.query ?? []).map((q) =>
    q.key !== null && step.query && q.key in step.query
      ? { ...q, value: step.query[q.key]!, disabled: false }
      : { ...q, disabled: true },
  );
  for (const key of Object.keys(step.query ?? {}))
    if (!query.some((q) => q.key === key)) throw new Error(`${step.op}: no query parameter ${key}`);
  // Headers: no placeholder values (the pre-request script sets Idempotency-Key; If-Match and
  // If-None-Match are optional and need an ETag of the moment).
  const header: PostmanHeader[] = (source.header ?? [])
    .filter(
      (h) =>
        !['idempotency-key', 'if-match', 'if-none-match', 'content-type'].includes(
          h.key.toLowerCase(),
        ),
    )
    .map((h) => ({ ...h, value: step.headers?.[h.key] ?? h.value }));
  let body: unknown;
  if (step.raw) {
    header.unshift({ key: 'Content-Type', value: step.raw.contentType });
    body = { mode: 'raw', raw: step.raw.text };
  } else if (step.body && typeof step.body === 'object' && 'form' in step.body) {
    header.unshift({ key: 'Content-Type', value: 'application/x-www-form-urlencoded' });
    body = {
      mode: 'urlencoded',
      urlencoded: Object.entries((step.body as { form: Record<string, string> }).form).map(
        ([key, value]) => ({ key, value }),
      ),
    };
  } else if (step.body !== undefined) {
    header.unshift({ key: 'Content-Type', value: 'application/json' });
    body = {
      mode: 'raw',
      raw: JSON.stringify(step.body, null, 2).replace(/"#(\{\{\w+\}\})#"/g, '$1'),
      options: { raw: { language: 'json' } },
    };
  } else if (BODY_METHODS.has(method) && source.body) {
    throw new Error(`${step.op}: the operation takes a body; give the step one`);
  }
  const auth =
    step.auth === 'none'
      ? ANONYMOUS
      : step.auth === 'app-basic'
        ? APP_BASIC
        : step.auth === 'device'
          ? DEVICE_BEARER
          : undefined;
  const request: PostmanRequest = {
    name,
    method,
    url: { path: source.url.path, host: ['{{baseUrl}}'], query, variable },
    header,
    ...(body === undefined ? {} : { body }),
    ...(auth ? { auth } : {}),
    ...(source.description ? { description: source.description } : {}),
  };
  return {
    name,
    request,
    event: [
      {
        listen: 'test',
        script: { type: 'text/javascript', exec: testScript(step, name, expected).split('\n') },
      },
    ],
  };
}

/** The collection, from the OpenAPI document's text. */
export async function buildCollection(documentText: string): Promise<Collection> {
  const document = JSON.parse(documentText) as OpenApiDocument;
  const converted = await convert(documentText);
  const byOperation = requestsByOperation(converted);
  const used = new Set<string>();
  const names = new Set<string>();
  const folders = RUN.map(({ folder, steps }) => ({
    name: folder,
    item: steps.map((step) => {
      const source = byOperation.get(step.op);
      if (!source) throw new Error(`${step.op} is not an operation of the document`);
      used.add(step.op);
      const item = requestOf(step, source, document, names);
      if (names.has(item.name)) throw new Error(`two requests are named ${item.name}`);
      names.add(item.name);
      return item;
    }),
  }));
  const missing = [...byOperation.keys()].filter((op) => !used.has(op));
  if (missing.length > 0)
    throw new Error(`the run does not call ${missing.join(', ')}: add them to RUN`);
  return {
    info: {
      name: `${document.info.title} ${document.info.version}`,
      description: {
        content:
          'Generated from openapi.json by scripts/postman-collection.ts (npm run postman:generate); ' +
          'runs in order against a server fresh from its first start: set clientId and clientSecret ' +
          '(and baseUrl) to what `npm start` printed. docs/api.md, "The Postman collection".',
        type: 'text/plain',
      },
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: {
      type: 'bearer',
      bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }],
    },
    event: [
      { listen: 'prerequest', script: { type: 'text/javascript', exec: PRE_REQUEST.split('\n') } },
    ],
    variable: Object.entries(VARIABLES).map(([key, value]) => ({ key, value, type: 'string' })),
    item: folders as PostmanItem[],
  };
}

if (import.meta.main) {
  const collection = await buildCollection(await readFile(path.join(ROOT, 'openapi.json'), 'utf8'));
  // Formatted as `npm run lint` wants every file of the repository.
  const options = (await prettier.resolveConfig(COLLECTION_FILE)) ?? {};
  await writeFile(
    COLLECTION_FILE,
    await prettier.format(JSON.stringify(collection), { ...options, filepath: COLLECTION_FILE }),
  );
  console.log(`wrote ${path.relative(ROOT, COLLECTION_FILE)}`);
}
