// The code of README.md, block by block, as one program: `npm run typecheck` compiles it and
// test/clients/typescript-client-readme.test.ts checks that every ```ts block of the README is
// here word for word. It is compiled, never run (it needs a tenant and its credentials).

// README: create a client
import { createManagementClient, ok } from '@omnichannel/management-client';

const client = createManagementClient({
  baseUrl: 'https://acme.api.example.com',
  auth: {
    clientId: process.env.OMNI_APP_ID ?? '',
    clientSecret: process.env.OMNI_APP_SECRET ?? '',
  },
});

// README: call
const brand = await ok(client.POST('/private/catalog/brand', { body: { Name: 'Acme' } }));
const item = await ok(
  client.POST('/private/catalog/item', {
    body: { Title: 'Runner', SKU: 'RUN-1', BrandId: brand.Id, ItemStatusId: 1 },
  }),
);
const fetched = await ok(
  client.GET('/private/catalog/item/{id}', { params: { path: { id: item.Id } } }),
);
// A fetched resource can be sent back: read-only fields are ignored.
await ok(
  client.PUT('/private/catalog/item/{id}', {
    params: { path: { id: item.Id } },
    body: { ...fetched, Title: 'Runner 2' },
  }),
);

// README: without ok()
const { data, error, response } = await client.GET('/private/catalog/brand/{id}', {
  params: { path: { id: brand.Id } },
});
if (data) console.log(data.Name, response.headers.get('ETag'));
else console.error(response.status, error?.Code);

// README: other tokens
const withToken = createManagementClient({
  baseUrl: 'https://acme.api.example.com',
  auth: { token: async () => process.env.OMNI_TOKEN ?? '' },
});
const kiosk = createManagementClient({
  baseUrl: 'https://acme.api.example.com',
  auth: { clientId: 'device-app-id', clientSecret: 'device-app-secret', physicalDeviceId: 'pd-1' },
});
const categories = await ok(withToken.GET('/private/catalog/categories'));
const devices = await ok(kiosk.GET('/company/stores/logicaldevices'));
console.log(categories.Categories.length);
console.log(devices.Data.map((device) => device.DeviceId));

// README: page
import { pages } from '@omnichannel/management-client';

for await (const app of pages((range) =>
  client.GET('/management/oauth/apps', { params: { query: range } }),
))
  console.log(app.ApplicationId, app.Name);

// With filters, and 500 a page:
for await (const found of pages(
  (range) =>
    client.GET('/private/catalog/items/search', {
      params: { query: { ...range, brandId: brand.Id } },
    }),
  { take: 500 },
))
  console.log(found.SKU);

// README: errors
import { ApiError, OAuthError } from '@omnichannel/management-client';

try {
  await ok(client.DELETE('/private/catalog/brand/{id}', { params: { path: { id: brand.Id } } }));
} catch (failure) {
  if (failure instanceof ApiError && failure.status === 409) {
    // The contract's error body: Code, FriendlyDescription, Errors, IdentifierGuid.
    console.warn(failure.code, failure.body?.FriendlyDescription, failure.requestId);
  } else if (failure instanceof OAuthError) {
    console.error('credentials refused:', failure.error, failure.description);
  } else throw failure;
}

// README: versions
import { ifChanged, withEtag } from '@omnichannel/management-client';

const path = { params: { path: { id: brand.Id } } };
const { data: current, etag } = await withEtag(client.GET('/private/catalog/brand/{id}', path));
try {
  const saved = await withEtag(
    client.PUT('/private/catalog/brand/{id}', {
      params: { path: { id: brand.Id }, header: { 'If-Match': etag } },
      body: { ...current, Name: 'Acme Outdoor' },
    }),
  );
  console.log('saved as version', saved.etag);
} catch (failure) {
  if (failure instanceof ApiError && failure.code === 'PreconditionFailed')
    console.warn('changed by someone else since it was read: fetch it again and redo the change');
  else throw failure;
}

// A cached copy, fetched again only when it changed.
const changed = await ifChanged(
  client.GET('/private/catalog/brand/{id}', {
    params: { path: { id: brand.Id }, header: { 'If-None-Match': etag } },
  }),
);
if (changed) console.log('new version', changed.etag, changed.data.Name);
else console.log('unchanged since', etag);

// README: retries
const patient = createManagementClient({
  baseUrl: 'https://acme.api.example.com',
  auth: { clientId: 'app-id', clientSecret: 'app-secret' },
  retry: { attempts: 5, baseDelayMs: 500, maxDelayMs: 60_000 },
});
// A key of your own, e.g. to make one business operation safe to send again after a restart:
await ok(
  patient.POST('/private/catalog/tag', {
    body: { Name: 'summer' },
    headers: { 'Idempotency-Key': 'import-2025-06-01-tag-summer' },
  }),
);

// README: binary
import { readFile } from 'node:fs/promises';

// An asset from its bytes: the body sent as it is, with its own Content-Type.
const asset = await ok(
  client.POST('/management/storage/asset/raw', {
    params: { query: { fileName: 'runner.png' } },
    body: new Blob([await readFile('runner.png')], { type: 'image/png' }),
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'image/png' },
  }),
);
await ok(
  client.POST('/private/catalog/items/{id}/image', {
    params: { path: { id: item.Id }, query: { assetId: asset.Id, isDefault: true } },
  }),
);

// A catalog import from an NDJSON file, and its results (NDJSON) as text.
const job = await ok(
  client.POST('/private/catalog/imports', {
    params: { query: { format: 'jsonl', errorPolicy: 'SkipFailedRows' } },
    body: new Blob([await readFile('catalog.jsonl')], { type: 'application/x-ndjson' }),
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'application/x-ndjson' },
  }),
);
const results = await ok(
  client.GET('/private/catalog/imports/{id}/results', {
    params: { path: { id: job.Id } },
    parseAs: 'text',
  }),
);
for (const line of results.split('\n').filter(Boolean)) console.log(JSON.parse(line));

// An asset's bytes, from the key at the end of its AssetUrl (no token needed).
const key = new URL(asset.AssetUrl).pathname.split('/').pop() ?? '';
const bytes = await ok(
  client.GET('/storage/blobs/{key}', { params: { path: { key } }, parseAs: 'blob' }),
);
console.log(bytes.size, bytes.type);

// README: types
import type { components, paths } from '@omnichannel/management-client';

export type Item =
  paths['/private/catalog/item/{id}']['get']['responses'][200]['content']['application/json'];
export type ErrorBody = components['schemas']['ErrorBody'];
