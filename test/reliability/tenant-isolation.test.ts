// The tenant-isolation matrix: for every operation of the OpenAPI document, tenant A's token on
// tenant B's host, and A's token on A's host with B's ids (in the path and in the body), is never
// a 2xx, and no answer to A ever carries B's data (B's entities all bear a secret marker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, type TestTenant } from '../support/test-api.ts';
import {
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
} from '../modules/company/company-fixtures.ts';
import { createAsset, pdf } from '../modules/storage/storage-fixtures.ts';
import { createMember, signIn } from '../modules/members/members-fixtures.ts';
import { operationsOf, type FuzzOperation } from './fuzz-fixtures.ts';

/** What one tenant owns, by the path parameter that names it. */
interface Owned {
  marker: string;
  /** Keyed by the path segment before the parameter, as in `item/{id}`. */
  ids: Record<string, string>;
  /** Body fields that reference another entity, as in `BrandId`. */
  references: Record<string, string | number>;
}

const api = useTestApi();
const a = useTenant(api, 'tenant-a');
const b = useTenant(api, 'tenant-b');
let ownedByB: Owned;
let operations: FuzzOperation[];
const counts = { operations: 0, requests: 0 };

// Client-chosen ids (device ids, metadata keys) are echoed in 404 messages to whoever sends them,
// so they carry a plain tag; the secret marker is in names, descriptions and values only.
async function seed(tenant: TestTenant, marker: string, label: string): Promise<Owned> {
  const post = async (url: string, body: unknown) => {
    const response = await api.call({ method: 'POST', url, tenant, body });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
    return response.json<{ Id: number }>();
  };
  // A webhook subscription first, so that the writes below become its deliveries.
  const webhook = await post('/management/webhooks', {
    Url: `https://hooks-${label}.example.com/omni`,
    EventTypes: ['*'],
    Description: `${marker} webhook`,
  });
  const brand = await post('/private/catalog/brand', { Name: `${marker} brand` });
  const category = await post('/private/catalog/category', { Name: `${marker} category` });
  const tag = await post('/private/catalog/tag', { Name: `${marker} tag` });
  const priceType = await post('/private/catalog/pricetype', {
    Description: `${marker} price`,
    PriceTypeSymbol: 'EUR',
  });
  const attributeType = await post('/private/catalog/dynamicattributetypes', {
    Description: `${marker} attribute`,
  });
  const item = await post('/private/catalog/item', {
    Title: `${marker} item`,
    BrandId: brand.Id,
    CategoryId: category.Id,
    Prices: [{ PriceTypeId: priceType.Id, NormalPrice: 5 }],
  });
  const asset = await createAsset(api, tenant, pdf(marker), 'application/pdf', `${label}.pdf`);
  const store = await createStore(api, tenant, 29, 41, `${marker} store`);
  const deviceType = await createDeviceType(api, tenant, `${marker} kiosk`);
  const physical = await createPhysicalDevice(api, tenant, store.Id, `pd-${label}`);
  const logical = await createLogicalDevice(api, tenant, physical.DeviceId, {
    DeviceId: `ld-${label}`,
    Description: `${marker} app`,
    DeviceTypeId: deviceType.Id,
    Metadata: [{ Key: `key-${label}`, Value: marker }],
  });
  await api.call({
    method: 'POST',
    url: '/analytics/logs',
    tenant,
    body: [{ Counter: 'ItemView', ItemId: item.Id }],
  });
  const member = await createMember(api, tenant, `member-${label}`, ['analyst'], undefined, {
    Name: `${marker} member`,
  });
  const catalogImport = await api.app.inject({
    method: 'POST',
    url: '/private/catalog/imports?errorPolicy=SkipFailedRows',
    headers: {
      host: tenant.host,
      authorization: `Bearer ${tenant.token}`,
      'content-type': 'application/x-ndjson',
    },
    payload: `${JSON.stringify({ Title: `${marker} imported` })}\n`,
  });
  expect(catalogImport.statusCode, catalogImport.body).toBe(202);
  const catalogExport = await api.call({
    method: 'POST',
    url: '/private/catalog/exports',
    tenant,
    body: {},
  });
  expect(catalogExport.statusCode, catalogExport.body).toBe(202);
  const invitation = await api.call({
    method: 'POST',
    url: '/management/security/members/invitations',
    tenant,
    body: { Email: `invitee-${label}@example.com`, Roles: [{ Id: 'analyst' }] },
  });
  expect(invitation.statusCode, invitation.body).toBe(201);
  const delivery = await firstDelivery(tenant, webhook.Id);
  return {
    marker,
    ids: {
      webhooks: String(webhook.Id),
      deliveries: String(delivery),
      apps: tenant.appId,
      imports: String(catalogImport.json<{ Id: number }>().Id),
      exports: String(catalogExport.json<{ Id: number }>().Id),
      item: String(item.Id),
      items: String(item.Id),
      dynamicattributetypes: String(attributeType.Id),
      brand: String(brand.Id),
      brands: String(brand.Id),
      category: String(category.Id),
      categories: String(category.Id),
      tag: String(tag.Id),
      pricetype: String(priceType.Id),
      asset: String(asset.Id),
      blobs: new URL(asset.AssetUrl).pathname.split('/').pop()!,
      store: String(store.Id),
      devicetypes: String(deviceType.Id),
      physicaldevices: physical.DeviceId,
      devices: logical.DeviceId,
      logicaldevices: logical.DeviceId,
      metadata: `key-${label}`,
      members: member.Id,
      invitations: invitation.json<{ Id: string }>().Id,
    },
    references: {
      BrandId: brand.Id,
      CategoryId: category.Id,
      ParentCategoryId: category.Id,
      PriceTypeId: priceType.Id,
      TagId: tag.Id,
      ItemId: item.Id,
      DefaultItemId: item.Id,
      TypeId: attributeType.Id,
      AssetId: asset.Id,
      StoreId: store.Id,
      DeviceTypeId: deviceType.Id,
    },
  };
}

/** The id of the subscription's first delivery, once the dispatcher has made it. */
async function firstDelivery(tenant: TestTenant, subscriptionId: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = await api.call({
      url: `/management/webhooks/${subscriptionId}/deliveries`,
      tenant,
    });
    const last = log.json<{ Results: { Id: number }[] }>().Results.at(-1);
    if (last) return last.Id;
    if (Date.now() > deadline) throw new Error('no webhook delivery within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Path parameters that name no entity get a plausible value. */
const NOT_IDS: Record<string, string> = {
  stores: '29;41',
  servercounters: 'ItemView',
  summary: 'day',
  // A version of a history (…/history/{version}): the entity is the path's id before it.
  history: '1',
};

/** The path with every id parameter set to the owner's id; undefined when it names none. */
function pathWithIdsOf(operation: FuzzOperation, owned: Owned): string | undefined {
  let namesEntity = false;
  const path = operation.path.replace(/([^/]*)\/\{([^}]+)\}/g, (_, segment: string) => {
    const notId = NOT_IDS[segment];
    if (notId !== undefined) return `${segment}/${notId}`;
    const id = owned.ids[segment];
    if (id === undefined) throw new Error(`no id for ${segment} in ${operation.path}`);
    namesEntity = true;
    return `${segment}/${encodeURIComponent(id)}`;
  });
  return namesEntity ? path : undefined;
}

/** A body of the operation's shape whose reference fields name the owner's entities. */
function bodyReferencing(operation: FuzzOperation, owned: Owned): string | undefined {
  const schema = operation.bodySchema as
    | { properties?: Record<string, unknown>; items?: { properties?: Record<string, unknown> } }
    | undefined;
  if (!schema) return undefined;
  const fields = schema.properties ?? schema.items?.properties ?? {};
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    const reference = owned.references[name];
    body[name] = reference ?? 'isolation';
  }
  return JSON.stringify(schema.items ? [body] : body);
}

const call = (method: string, url: string, host: string, token: string, body: string | undefined) =>
  api.app.inject({
    method: method as 'GET',
    url,
    headers: {
      host,
      accept: 'application/vnd.xomni.api-v4-0',
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: body }),
  });

beforeAll(async () => {
  await seed(a, 'SECRET-A-7f3c', 'a');
  ownedByB = await seed(b, 'SECRET-B-91d2', 'b');
  const document = (await api.call({ url: '/openapi.json' })).json<
    Parameters<typeof operationsOf>[0]
  >();
  operations = operationsOf(document).filter(
    // Tenant-less by design: operator routes, the token endpoint and the public key set.
    (op) => !/^\/(health|metrics|docs|openapi\.json|oauth\/|\.well-known\/)/.test(op.path),
  );
}, 120_000);

afterAll(async () => {
  console.log(`tenant isolation: ${counts.requests} requests over ${counts.operations} operations`);
});

describe('tenant isolation matrix', () => {
  it("never answers 2xx to A's token on B's host", async () => {
    for (const operation of operations) {
      // The asset bytes are public by their unguessable key; no token is read there.
      if (operation.path.startsWith('/storage/blobs/')) continue;
      const path = pathWithIdsOf(operation, ownedByB) ?? operation.path;
      const body = bodyReferencing(operation, ownedByB);
      const response = await call(operation.method, path, b.host, a.token, body);
      counts.requests++;
      expect(response.statusCode, `${operation.method} ${path}: ${response.body}`).toBe(401);
    }
  });

  it("never answers 2xx to the token of A's owner (a member signed in on A) on B's host", async () => {
    const owner = await createMember(api, a, 'isolation-owner', ['owner']);
    const { access_token: token } = await signIn(api, a, owner.Username);
    for (const operation of operations) {
      if (operation.path.startsWith('/storage/blobs/')) continue;
      const path = pathWithIdsOf(operation, ownedByB) ?? operation.path;
      const body = bodyReferencing(operation, ownedByB);
      const response = await call(operation.method, path, b.host, token, body);
      counts.requests++;
      expect(response.statusCode, `${operation.method} ${path}: ${response.body}`).toBe(401);
    }
  });

  it("never answers 2xx to A's token on A's host with B's ids in the path", async () => {
    for (const operation of operations) {
      const path = pathWithIdsOf(operation, ownedByB);
      if (path === undefined) continue;
      counts.operations++;
      const body = bodyReferencing(operation, ownedByB);
      const response = await call(operation.method, path, a.host, a.token, body);
      counts.requests++;
      const context = `${operation.method} ${path}: ${response.statusCode} ${response.body.slice(0, 200)}`;
      expect(response.statusCode, context).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, context).toBeLessThan(500);
      expect(response.body, context).not.toContain(ownedByB.marker);
      // Control: the same read by B itself finds the entity, so the ids above are real ones.
      if (operation.method === 'GET' && /^\/(management|private|storage)\//.test(path)) {
        const own = await call('GET', path, b.host, b.token, undefined);
        expect(own.statusCode, `B's own ${path}: ${own.body.slice(0, 200)}`).toBe(200);
      }
    }
  });

  it("never lets A reference B's entities in a body, nor shows B's data in any answer to A", async () => {
    for (const operation of operations) {
      if (pathWithIdsOf(operation, ownedByB) !== undefined) continue;
      counts.operations++;
      const body = bodyReferencing(operation, ownedByB);
      const response = await call(operation.method, operation.path, a.host, a.token, body);
      counts.requests++;
      const context = `${operation.method} ${operation.path}: ${response.statusCode} ${response.body.slice(0, 200)}`;
      expect(response.statusCode, context).toBeLessThan(500);
      if (body !== undefined && /"(\w+Id)":\d/.test(body) && operation.method !== 'GET')
        expect(response.statusCode, context).toBeGreaterThanOrEqual(400);
      expect(response.body, context).not.toContain(ownedByB.marker);
    }
  });
});
