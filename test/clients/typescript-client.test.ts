// The generated TypeScript client (clients/typescript) against the API on a real port: every
// resource walked as an integrator would write it, with no cast, no non-null assertion and no any
// (tsc checks this file: a document that makes natural use fail to type-check fails `npm run
// typecheck`). Every request goes through Prism's validating proxy (test/support/prism.ts) as well
// as our own check of each answer. The last tests check that the walk called every operation of
// the document, and that Prism found no violation.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createManagementClient,
  ok,
  pages,
  type ManagementClient,
  type paths,
} from '../../clients/typescript/src/index.ts';
import { startListeningApi } from '../support/listening-api.ts';
import { prismFetch, startPrism, type Prism } from '../support/prism.ts';
import type { TestApi, TestTenant } from '../support/test-api.ts';
import { WebhookReceiver } from '../modules/events/webhook-receiver-fixtures.ts';

/** Operations the walk called, as `METHOD /document/path` (the client's middleware sees each). */
const called = new Set<string>();

let api: TestApi;
let acme: TestTenant;
let baseUrl: string;
let client: ManagementClient;
let prism: Prism;
let throughPrism: (request: Request) => Promise<Response>;
const receiver = new WebhookReceiver();
let receiverPort: number;
/** What the catalog's first test makes, for the tests after it. */
let catalog: {
  brandId: number;
  tagId: number;
  priceTypeId: number;
  typeId: number;
  categoryId: number;
};
let itemId: number;
/** What the company test makes, deleted at the end. */
let company: { storeId: number; typeId: number; physicalDeviceId: string };

/** A client for the tenant's base URL as an integrator makes one, recording the operations it calls. */
function clientFor(auth: Parameters<typeof createManagementClient>[0]['auth']): ManagementClient {
  const created = createManagementClient({
    baseUrl,
    ...(auth ? { auth } : {}),
    fetch: throughPrism,
  });
  created.use({
    onRequest({ request, schemaPath }) {
      called.add(`${request.method} ${schemaPath}`);
    },
  });
  return created;
}

/** The value, or a failed test naming what was missing (no non-null assertion needed). */
function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/**
 * Polls until `check` finds what it waits for in the latest state (jobs, deliveries and
 * provisioning end in the background); a timeout names the last state seen.
 */
async function eventually<S, T>(
  what: string,
  read: () => Promise<S>,
  check: (state: S) => T | undefined,
): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = await read();
    const found = check(state);
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in 20 s; last seen ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The records of an NDJSON text (an export file, an import's results). */
function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): unknown => JSON.parse(line));
}

/** A field of a parsed record, undefined when it has none. */
function fieldOf(record: unknown, name: string): unknown {
  return typeof record === 'object' && record !== null && name in record
    ? Object.getOwnPropertyDescriptor(record, name)?.value
    : undefined;
}

/** A 1×1 PNG (the API checks an image's bytes against its MIME type). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  receiverPort = await receiver.start();
  const started = await startListeningApi({
    JOB_POLLING_INTERVAL_SECONDS: '1',
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
    WEBHOOK_POLLING_INTERVAL_MS: '50',
    // Its own address is the tenant too, should Prism pass on its upstream's Host.
    DEFAULT_TENANT: 'acme',
  });
  api = started.api;
  prism = await startPrism(started.port);
  throughPrism = prismFetch(prism, started.port);
  acme = await api.createTenant('acme');
  baseUrl = `http://acme.${api.config.apiHost}:${started.port}`;
  client = clientFor({ clientId: acme.appId, clientSecret: acme.secret });
}, 120_000);
afterAll(async () => {
  await prism?.stop();
  await api?.close();
  await receiver.stop();
});

describe('operator routes', () => {
  it('answers health on the tenant host', async () => {
    const anonymous = clientFor(undefined);
    expect((await ok(anonymous.GET('/health/live'))).Status).toBe('ok');
    expect((await ok(anonymous.GET('/health/ready'))).Status).toBe('ready');
  });
});

describe('OAuth: apps and tokens', () => {
  it('creates, reads, lists, updates, rotates and deletes an app, and its credentials get tokens', async () => {
    const created = await ok(
      client.POST('/management/oauth/apps', {
        body: { Name: 'Kiosk fleet', Description: 'In-store kiosks', ApplicationTypeId: 4 },
      }),
    );
    expect(created.ApplicationTypeId).toBe(4);
    const secret = present(created.ApplicationSecret, 'the new app secret');
    const id = created.ApplicationId;

    const fetched = await ok(
      client.GET('/management/oauth/apps/{applicationId}', {
        params: { path: { applicationId: id } },
      }),
    );
    expect(fetched.ApplicationSecret).toBeNull();
    // A fetched app sent back as it is (read-only fields ignored).
    const updated = await ok(
      client.PUT('/management/oauth/apps/{applicationId}', {
        params: { path: { applicationId: id } },
        body: { ...fetched, Name: 'Kiosks' },
      }),
    );
    expect(updated.Name).toBe('Kiosks');

    const names: string[] = [];
    for await (const app of pages(
      (range) => client.GET('/management/oauth/apps', { params: { query: range } }),
      { take: 1 },
    ))
      names.push(app.Name);
    expect(names).toContain('Kiosks');
    expect(names.length).toBeGreaterThanOrEqual(2);

    // The app's own credentials, then the rotated ones.
    const kiosk = clientFor({ clientId: id, clientSecret: secret });
    expect((await ok(kiosk.GET('/company/devicetypes'))).Data.TotalCount).toBe(0);
    const rotated = await ok(
      client.POST('/management/oauth/apps/{applicationId}/secret', {
        params: { path: { applicationId: id } },
      }),
    );
    const newSecret = present(rotated.ApplicationSecret, 'the rotated secret');
    expect(newSecret).not.toBe(secret);
    const rotatedKiosk = clientFor({ clientId: id, clientSecret: newSecret });
    expect((await ok(rotatedKiosk.GET('/company/devicetypes'))).Data.Results).toEqual([]);

    await ok(
      client.DELETE('/management/oauth/apps/{applicationId}', {
        params: { path: { applicationId: id } },
      }),
    );
    const gone = await client.GET('/management/oauth/apps/{applicationId}', {
      params: { path: { applicationId: id } },
    });
    expect(gone.response.status).toBe(404);
  });

  it('gets a token, revokes it, and the API refuses it from then on', async () => {
    const anonymous = clientFor(undefined);
    const basic = `Basic ${Buffer.from(`${acme.appId}:${acme.secret}`).toString('base64')}`;
    const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
    const issued = await ok(
      anonymous.POST('/oauth/token', {
        body: { grant_type: 'client_credentials', scope: 'public private' },
        bodySerializer: form,
        headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(issued.scope).toBe('public private');
    const withToken = clientFor({ token: issued.access_token });
    expect((await ok(withToken.GET('/private/catalog/brands'))).TotalCount).toBe(0);
    // A resource server asks about the token (RFC 7662), as an app of the tenant.
    const introspect = () =>
      ok(
        anonymous.POST('/oauth/introspect', {
          body: { token: issued.access_token },
          bodySerializer: form,
          headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
      );
    const active = await introspect();
    expect(active).toMatchObject({ active: true, client_id: acme.appId, scope: 'public private' });

    await ok(
      anonymous.POST('/oauth/revoke', {
        body: { token: issued.access_token },
        bodySerializer: form,
        headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    );
    const refused = await withToken.GET('/private/catalog/brands');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.Code).toBe('InvalidToken');
    expect(await introspect()).toEqual({ active: false });
  });

  it('discovers the authorization server and its keys', async () => {
    const anonymous = clientFor(undefined);
    const metadata = await ok(anonymous.GET('/.well-known/oauth-authorization-server'));
    expect(metadata.token_endpoint).toBe(`${baseUrl}/oauth/token`);
    expect(metadata.introspection_endpoint).toBe(`${baseUrl}/oauth/introspect`);
    const keys = await ok(anonymous.GET('/.well-known/jwks.json'));
    expect(keys.keys.length).toBeGreaterThan(0);
  });
});

describe('members and the console sign-in', () => {
  it('manages members, and a member signs in with PKCE and refreshes the session', async () => {
    const roles = await ok(client.GET('/management/security/roles'));
    const editor = present(
      roles.Results.find((role) => role.Id === 'catalog-editor'),
      'the catalog-editor role',
    );
    const password = 'violet-Harbor-lamp-92';
    const member = await ok(
      client.POST('/management/security/members', {
        body: { Username: 'ada', Name: 'Ada', Password: password, Roles: [editor] },
      }),
    );
    const fetched = await ok(
      client.GET('/management/security/members/{id}', { params: { path: { id: member.Id } } }),
    );
    const renamed = await ok(
      client.PUT('/management/security/members/{id}', {
        params: { path: { id: member.Id } },
        body: { ...fetched, Name: 'Ada L.' },
      }),
    );
    expect(renamed.Name).toBe('Ada L.');
    const list = await ok(client.GET('/management/security/members'));
    expect(list.Results.map((m) => m.Username)).toContain('ada');

    // The console's sign-in: the page, its form with the CSRF cookie, the code, the tokens.
    const browser = clientFor(undefined);
    const verifier = randomBytes(32).toString('base64url');
    const request: NonNullable<paths['/oauth/authorize']['get']['parameters']['query']> = {
      response_type: 'code',
      client_id: 'console',
      redirect_uri: `${baseUrl}/console/callback`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'xyz',
    };
    const page = await browser.GET('/oauth/authorize', {
      params: { query: request },
      parseAs: 'text',
      headers: { Accept: 'text/html' },
    });
    const html = present(page.data, 'the sign-in page');
    const csrf = present(/name="csrf_token" value="([^"]+)"/.exec(html)?.[1], 'the CSRF token');
    const cookie = present(page.response.headers.get('set-cookie'), 'the CSRF cookie').split(
      ';',
    )[0];
    const signedIn = await browser.POST('/oauth/authorize', {
      body: { ...request, csrf_token: csrf, username: 'ada', password },
      bodySerializer: (body) => new URLSearchParams(body).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: present(cookie, 'cookie'),
      },
      parseAs: 'text',
    });
    expect(signedIn.response.status).toBe(302);
    const location = new URL(present(signedIn.response.headers.get('location'), 'Location'));
    const code = present(location.searchParams.get('code'), 'the code');
    const form = {
      bodySerializer: (body: Record<string, string>) => new URLSearchParams(body).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    };
    const session = await ok(
      browser.POST('/oauth/token', {
        body: {
          grant_type: 'authorization_code',
          client_id: 'console',
          code,
          redirect_uri: request.redirect_uri,
          code_verifier: verifier,
        },
        ...form,
      }),
    );
    const refreshed = await ok(
      browser.POST('/oauth/token', {
        body: {
          grant_type: 'refresh_token',
          client_id: 'console',
          refresh_token: present(session.refresh_token, 'the refresh token'),
        },
        ...form,
      }),
    );
    const asMember = clientFor({ token: refreshed.access_token });
    expect((await ok(asMember.GET('/private/catalog/tags'))).TotalCount).toBe(0);

    await ok(
      client.DELETE('/management/security/members/{id}', { params: { path: { id: member.Id } } }),
    );
  });
});

describe('member invitations', () => {
  it('invites by e-mail, lists, resends, revokes, and the invitee accepts on the invitation page', async () => {
    const invitation = await ok(
      client.POST('/management/security/members/invitations', {
        body: { Email: 'grace@acme.example', Name: 'Grace', Roles: [{ Id: 'analyst' }] },
      }),
    );
    expect(invitation.IsExpired).toBe(false);
    const other = await ok(
      client.POST('/management/security/members/invitations', {
        body: { Email: 'linus@acme.example', Roles: [{ Id: 'device-manager' }] },
      }),
    );
    const open = await ok(client.GET('/management/security/members/invitations'));
    expect(open.Results.map((i) => i.Email)).toEqual(['grace@acme.example', 'linus@acme.example']);
    const resent = await ok(
      client.POST('/management/security/members/invitations/{id}/resend', {
        params: { path: { id: invitation.Id } },
      }),
    );
    const fetched = await ok(
      client.GET('/management/security/members/invitations/{id}', {
        params: { path: { id: invitation.Id } },
      }),
    );
    expect(fetched.SentDate).toBe(resent.SentDate);
    const revoked = await client.DELETE('/management/security/members/invitations/{id}', {
      params: { path: { id: other.Id } },
    });
    expect(revoked.response.status).toBe(204);

    // The newest e-mail's link, from the outbox, opened and sent as a browser would.
    const tenant = present(await api.services.tenants.findByName('acme'), 'the tenant');
    const mails = (await api.services.outbox.records(tenant.id)).filter(
      (record) => record.recipient === 'grace@acme.example',
    );
    const link = present(
      /\S+\/oauth\/invitation\?token=\S+/.exec(mails.at(-1)?.body ?? '')?.[0],
      'the link',
    );
    const token = present(new URL(link).searchParams.get('token'), 'the token');
    const browser = clientFor(undefined);
    const page = await browser.GET('/oauth/invitation', {
      params: { query: { token } },
      parseAs: 'text',
      headers: { Accept: 'text/html' },
    });
    expect(present(page.data, 'the invitation page')).toContain('grace@acme.example');
    const accepted = await browser.POST('/oauth/invitation', {
      body: {
        token,
        name: 'Grace H.',
        username: 'grace',
        password: 'amber-Canyon-kettle-38',
        password_repeat: 'amber-Canyon-kettle-38',
      },
      bodySerializer: (body) => new URLSearchParams(body).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      parseAs: 'text',
    });
    expect(accepted.response.status).toBe(200);
    const members = await ok(client.GET('/management/security/members'));
    const grace = present(
      members.Results.find((m) => m.Username === 'grace'),
      'the member made from the invitation',
    );
    expect(grace.Email).toBe('grace@acme.example');
    await ok(
      client.DELETE('/management/security/members/{id}', { params: { path: { id: grace.Id } } }),
    );
  });
});

describe('the catalog', () => {
  it('walks brands, tags, price types, attribute types, categories and their metadata', async () => {
    const brand = await ok(client.POST('/private/catalog/brand', { body: { Name: 'Acme' } }));
    const fetchedBrand = await ok(
      client.GET('/private/catalog/brand/{id}', { params: { path: { id: brand.Id } } }),
    );
    await ok(
      client.PUT('/private/catalog/brand/{id}', {
        params: { path: { id: brand.Id } },
        body: { ...fetchedBrand, Name: 'Acme Corp' },
      }),
    );
    expect((await ok(client.GET('/private/catalog/brands'))).Results.map((b) => b.Name)).toEqual([
      'Acme Corp',
    ]);

    const tag = await ok(client.POST('/private/catalog/tag', { body: { Name: 'summer' } }));
    const fetchedTag = await ok(
      client.GET('/private/catalog/tag/{id}', { params: { path: { id: tag.Id } } }),
    );
    await ok(
      client.PUT('/private/catalog/tag/{id}', {
        params: { path: { id: tag.Id } },
        body: { ...fetchedTag, Name: 'summer-sale' },
      }),
    );
    expect((await ok(client.GET('/private/catalog/tags'))).TotalCount).toBe(1);

    const priceType = await ok(
      client.POST('/private/catalog/pricetype', {
        body: { Description: 'Euro', PriceTypeSymbol: 'EUR' },
      }),
    );
    const fetchedPriceType = await ok(
      client.GET('/private/catalog/pricetype/{id}', { params: { path: { id: priceType.Id } } }),
    );
    await ok(
      client.PUT('/private/catalog/pricetype/{id}', {
        params: { path: { id: priceType.Id } },
        body: { ...fetchedPriceType, Description: 'Euro (EU)' },
      }),
    );
    expect((await ok(client.GET('/private/catalog/pricetypes'))).Results[0]?.Description).toBe(
      'Euro (EU)',
    );

    const type = await ok(
      client.POST('/private/catalog/dynamicattributetypes', { body: { Description: 'Colour' } }),
    );
    const fetchedType = await ok(
      client.GET('/private/catalog/dynamicattributetypes/{id}', {
        params: { path: { id: type.Id } },
      }),
    );
    await ok(
      client.PUT('/private/catalog/dynamicattributetypes/{id}', {
        params: { path: { id: type.Id } },
        body: { ...fetchedType, Description: 'Color' },
      }),
    );
    await ok(
      client.PATCH('/private/catalog/dynamicattributetypes/{id}', {
        params: { path: { id: type.Id } },
        body: { Description: 'Colour' },
      }),
    );
    expect((await ok(client.GET('/private/catalog/dynamicattributetypes'))).TotalCount).toBe(1);

    const parent = await ok(client.POST('/private/catalog/category', { body: { Name: 'Shoes' } }));
    const child = await ok(
      client.POST('/private/catalog/category', {
        body: { Name: 'Sneakers', ParentCategoryId: parent.Id },
      }),
    );
    const fetchedChild = await ok(
      client.GET('/private/catalog/category/{id}', { params: { path: { id: child.Id } } }),
    );
    await ok(
      client.PUT('/private/catalog/category/{id}', {
        params: { path: { id: child.Id } },
        body: { ...fetchedChild, ShortDescription: 'Running and casual' },
      }),
    );
    await ok(
      client.PATCH('/private/catalog/category/{id}', {
        params: { path: { id: child.Id } },
        body: { LongDescription: 'Every sneaker we sell.' },
      }),
    );
    const tree = await ok(client.GET('/private/catalog/categories'));
    expect(tree.Categories.map((c) => c.CategoryTreeItems.map((t) => t.Name))).toEqual([
      ['Sneakers'],
    ]);

    await ok(
      client.POST('/private/catalog/categorymetadata', {
        body: { CategoryId: child.Id, Key: 'season', Value: 'summer' },
      }),
    );
    await ok(
      client.PUT('/private/catalog/categorymetadata', {
        body: { CategoryId: child.Id, Key: 'season', Value: 'all' },
      }),
    );
    const metadata = await ok(
      client.GET('/private/catalog/categorymetadata', {
        params: { query: { categoryId: child.Id } },
      }),
    );
    expect(metadata).toEqual([{ Key: 'season', Value: 'all' }]);
    await ok(
      client.DELETE('/private/catalog/categorymetadata', {
        params: { query: { categoryId: child.Id, metadataKey: 'season' } },
      }),
    );

    catalog = {
      brandId: brand.Id,
      tagId: tag.Id,
      priceTypeId: priceType.Id,
      typeId: type.Id,
      categoryId: child.Id,
    };
  });

  it('walks items with variants, prices, attributes, tags and search', async () => {
    const { brandId, tagId, priceTypeId, typeId, categoryId } = catalog;
    const master = await ok(
      client.POST('/private/catalog/item', {
        body: {
          Title: 'Runner',
          SKU: 'RUN-1',
          BrandId: brandId,
          CategoryId: categoryId,
          Prices: [{ NormalPrice: 99.9, PriceTypeId: priceTypeId }],
          DynamicAttributes: [{ TypeId: typeId, Value: 'Red' }],
        },
      }),
    );
    const variant = await ok(
      client.POST('/private/catalog/item', { body: { Title: 'Runner (blue)', SKU: 'RUN-2' } }),
    );
    const other = await ok(
      client.POST('/private/catalog/item', { body: { Title: 'Walker', SKU: 'WALK-1' } }),
    );

    // A fetched item sent back with PUT, then a PATCH of one field.
    const fetched = await ok(
      client.GET('/private/catalog/item/{id}', { params: { path: { id: master.Id } } }),
    );
    const put = await ok(
      client.PUT('/private/catalog/item/{id}', {
        params: { path: { id: master.Id } },
        body: { ...fetched, Model: 'R-2025' },
      }),
    );
    expect(put.Model).toBe('R-2025');
    const patched = await ok(
      client.PATCH('/private/catalog/item/{id}', {
        params: { path: { id: master.Id } },
        body: { ShortDescription: 'Light and fast' },
      }),
    );
    expect(patched.ShortDescription).toBe('Light and fast');
    // The same with the id in the body (contract §5.3).
    await ok(client.PUT('/private/catalog/item', { body: { ...patched, InStock: true } }));
    await ok(client.PATCH('/private/catalog/item', { body: { Id: master.Id, Rating: 4.5 } }));

    await ok(
      client.POST('/private/catalog/items/{id}/group', {
        params: { path: { id: master.Id } },
        body: [variant.Id],
      }),
    );
    await ok(
      client.POST('/private/catalog/items/{id}/move', {
        params: { path: { id: other.Id } },
        body: [variant.Id],
      }),
    );
    await ok(
      client.POST('/private/catalog/items/{id}/ungroup', { params: { path: { id: other.Id } } }),
    );

    const prices = await ok(
      client.PUT('/private/catalog/items/{id}/prices', {
        params: { path: { id: master.Id } },
        body: [{ NormalPrice: 89.9, DiscountPrice: 79.9, PriceTypeId: priceTypeId }],
      }),
    );
    expect(prices.map((p) => p.DiscountPrice)).toEqual([79.9]);
    // Prices fetched and sent back as they are.
    const fetchedPrices = await ok(
      client.GET('/private/catalog/items/{id}/prices', { params: { path: { id: master.Id } } }),
    );
    await ok(
      client.PUT('/private/catalog/items/{id}/prices', {
        params: { path: { id: master.Id } },
        body: fetchedPrices,
      }),
    );
    const attributes = await ok(
      client.GET('/private/catalog/items/{id}/dynamicattributes', {
        params: { path: { id: master.Id } },
      }),
    );
    await ok(
      client.PUT('/private/catalog/items/{id}/dynamicattributes', {
        params: { path: { id: master.Id } },
        // Another value for each type the item has (an item has one value per type).
        body: attributes.map(({ TypeId }) => ({ TypeId, Value: 'Blue' })),
      }),
    );
    const values = await ok(
      client.GET('/private/catalog/dynamicattributetypes/{id}/dynamicattributes', {
        params: { path: { id: typeId } },
      }),
    );
    expect(values.map((v) => v.Value)).toContain('Blue');

    await ok(
      client.POST('/private/catalog/itemtagmapping', { body: { ItemId: master.Id, TagId: tagId } }),
    );
    const mappings = await ok(
      client.GET('/private/catalog/itemtagmappings', { params: { query: { tagId } } }),
    );
    expect(mappings.Results.map((m) => m.ItemId)).toEqual([master.Id]);

    const listed = await ok(client.GET('/private/catalog/items'));
    expect(listed.TotalCount).toBe(3);
    const bySku = await ok(
      client.GET('/private/catalog/items/search', { params: { query: { sku: 'RUN-1' } } }),
    );
    expect(bySku.Results.map((i) => i.Id)).toEqual([master.Id]);
    const search = await ok(
      client.POST('/private/catalog/items', {
        body: { Query: 'runer', IncludeStaticNavigation: true, IncludeDynamicNavigation: true },
      }),
    );
    expect(search.SearchResult.Items.map((i) => i.Id)).toContain(master.Id);
    expect(search.SearchResult.StaticNavigation?.Brands.map((b) => b.Name)).toEqual(['Acme Corp']);

    await ok(
      client.DELETE('/private/catalog/itemtagmapping', {
        params: { query: { itemId: master.Id, tagId } },
      }),
    );
    await ok(client.DELETE('/private/catalog/item/{id}', { params: { path: { id: other.Id } } }));
    itemId = master.Id;
  });

  it('uploads assets, relates them to items, brands and categories, and serves their bytes', async () => {
    const image = await ok(
      client.POST('/management/storage/asset', {
        body: { FileName: 'runner.png', MimeType: 'image/png', FileBody: PNG.toString('base64') },
      }),
    );
    // The raw upload: the bytes as the body, with their own Content-Type.
    const video = await ok(
      client.POST('/management/storage/asset/raw', {
        params: { query: { fileName: 'clip.mp4' } },
        body: new Blob([randomBytes(64)], { type: 'video/mp4' }),
        bodySerializer: (body) => body,
        headers: { 'Content-Type': 'video/mp4' },
      }),
    );
    const document = await ok(
      client.POST('/management/storage/asset/raw', {
        params: { query: { fileName: 'manual.pdf' } },
        body: new Blob(['%PDF-1.4 manual'], { type: 'application/pdf' }),
        bodySerializer: (body) => body,
        headers: { 'Content-Type': 'application/pdf' },
      }),
    );
    expect((await ok(client.GET('/management/storage/assets'))).TotalCount).toBe(3);
    const fetched = await ok(
      client.GET('/management/storage/asset/{id}', { params: { path: { id: image.Id } } }),
    );
    expect(fetched.Size).toBe(PNG.length);

    // The bytes, from the unguessable key of the AssetUrl, without a token.
    const key = present(new URL(image.AssetUrl).pathname.split('/').pop(), 'the blob key');
    const anonymous = clientFor(undefined);
    const bytes = await ok(
      anonymous.GET('/storage/blobs/{key}', { params: { path: { key } }, parseAs: 'arrayBuffer' }),
    );
    expect(Buffer.from(bytes).equals(PNG)).toBe(true);
    const head = await anonymous.HEAD('/storage/blobs/{key}', { params: { path: { key } } });
    expect(head.response.headers.get('content-length')).toBe(String(PNG.length));

    const { brandId, categoryId } = catalog;
    for (const [asset, kind] of [
      [image.Id, 'image'],
      [video.Id, 'video'],
      [document.Id, 'document'],
    ] as const) {
      const related = await ok(
        client.POST(`/private/catalog/items/{id}/${kind}`, {
          params: { path: { id: itemId }, query: { assetId: asset } },
        }),
      );
      expect(related.IsDefault).toBe(false);
    }
    await ok(
      client.PUT('/private/catalog/items/{id}/image', {
        params: { path: { id: itemId } },
        body: { AssetId: image.Id, IsDefault: true },
      }),
    );
    const images = await ok(
      client.GET('/private/catalog/items/{id}/image', { params: { path: { id: itemId } } }),
    );
    expect(images.map((i) => [i.FileName, i.IsDefault])).toEqual([['runner.png', true]]);
    await ok(
      client.PUT('/private/catalog/items/{id}/video', {
        params: { path: { id: itemId } },
        body: { AssetId: video.Id, IsDefault: true },
      }),
    );
    expect(
      await ok(
        client.GET('/private/catalog/items/{id}/video', { params: { path: { id: itemId } } }),
      ),
    ).toHaveLength(1);
    await ok(
      client.PUT('/private/catalog/items/{id}/document', {
        params: { path: { id: itemId } },
        body: { AssetId: document.Id, IsDefault: true },
      }),
    );
    expect(
      await ok(
        client.GET('/private/catalog/items/{id}/document', { params: { path: { id: itemId } } }),
      ),
    ).toHaveLength(1);
    for (const path of [
      '/private/catalog/items/{id}/image',
      '/private/catalog/items/{id}/video',
      '/private/catalog/items/{id}/document',
    ] as const) {
      const related = await ok(client.GET(path, { params: { path: { id: itemId } } }));
      for (const { AssetId } of related)
        await ok(
          client.DELETE(path, { params: { path: { id: itemId }, query: { assetId: AssetId } } }),
        );
    }

    // Brands and categories: the same four operations for each kind of asset.
    for (const [kind, id] of [
      ['brands', brandId],
      ['categories', categoryId],
    ] as const) {
      for (const [asset, media] of [
        [image.Id, 'image'],
        [video.Id, 'video'],
        [document.Id, 'document'],
      ] as const) {
        const path = `/private/catalog/${kind}/{id}/${media}` as const;
        await ok(client.POST(path, { params: { path: { id }, query: { assetId: asset } } }));
        await ok(
          client.PUT(path, { params: { path: { id } }, body: { AssetId: asset, IsDefault: true } }),
        );
        const related = await ok(client.GET(path, { params: { path: { id } } }));
        expect(related.map((r) => r.AssetId)).toEqual([asset]);
        await ok(client.DELETE(path, { params: { path: { id }, query: { assetId: asset } } }));
      }
    }

    await ok(
      client.DELETE('/management/storage/asset/{id}', { params: { path: { id: document.Id } } }),
    );
  });

  it('exports the catalog and imports it back, from a body and from an uploaded asset', async () => {
    const started = await ok(
      client.POST('/private/catalog/exports', { body: { Format: 'jsonl' } }),
    );
    const exported = await eventually(
      'the export',
      () =>
        ok(client.GET('/private/catalog/exports/{id}', { params: { path: { id: started.Id } } })),
      (job) => (job.State === 'Succeeded' ? job : undefined),
    );
    const exports = await ok(
      client.GET('/private/catalog/exports', { params: { query: { skip: 0, take: 10 } } }),
    );
    expect(exports.Results.map((job) => job.Id)).toContain(started.Id);
    const key = present(
      new URL(present(exported.AssetUrl, 'the export file')).pathname.split('/').pop(),
      'the blob key',
    );
    const file = await ok(
      clientFor(undefined).GET('/storage/blobs/{key}', {
        params: { path: { key } },
        parseAs: 'text',
      }),
    );
    const items = await ok(client.GET('/private/catalog/items'));
    // The catalog's other records (categories, brands, tags, price and attribute types) come
    // before its items, which carry no RecordType.
    const records = jsonLines(file);
    expect(records.filter((record) => fieldOf(record, 'RecordType') === undefined)).toHaveLength(
      items.TotalCount,
    );
    expect(records.map((record) => fieldOf(record, 'RecordType'))).toContain('Brand');

    // The catalog emptied (variants before their default item), then the file posted back as
    // the body of an import (NDJSON): the same items again, their new ids in the results (NDJSON).
    const variantsFirst = [...items.Results].sort(
      (a, b) => Number(b.DefaultItemId !== null) - Number(a.DefaultItemId !== null),
    );
    for (const item of variantsFirst)
      await ok(client.DELETE('/private/catalog/item/{id}', { params: { path: { id: item.Id } } }));
    const imported = await ok(
      client.POST('/private/catalog/imports', {
        params: { query: { format: 'jsonl', createMissing: true } },
        body: new Blob([file], { type: 'application/x-ndjson' }),
        bodySerializer: (body) => body,
        headers: { 'Content-Type': 'application/x-ndjson' },
      }),
    );
    const done = await eventually(
      'the import',
      () =>
        ok(client.GET('/private/catalog/imports/{id}', { params: { path: { id: imported.Id } } })),
      (job) => (job.State === 'Succeeded' ? job : undefined),
    );
    expect(done.RowsFailed).toBe(0);
    expect(done.RowsWritten).toBe(records.length);
    const imports = await ok(client.GET('/private/catalog/imports'));
    expect(imports.Results.map((job) => job.Id)).toContain(imported.Id);
    const results = await ok(
      client.GET('/private/catalog/imports/{id}/results', {
        params: { path: { id: imported.Id } },
        parseAs: 'text',
      }),
    );
    const written = jsonLines(results).flatMap((result) => {
      const id = fieldOf(result, 'ItemId');
      return typeof id === 'number' ? [id] : [];
    });
    expect(written).toHaveLength(items.TotalCount);
    // The first item record is the default item the walk made (the export writes it first).
    itemId = written[0] ?? Number.NaN;
    expect(
      (await ok(client.GET('/private/catalog/item/{id}', { params: { path: { id: itemId } } })))
        .SKU,
    ).toBe('RUN-1');

    // The same file as an uploaded asset, imported by its id.
    const asset = await ok(
      client.POST('/management/storage/asset/raw', {
        params: { query: { fileName: 'catalog.jsonl' } },
        body: new Blob([file], { type: 'application/x-ndjson' }),
        bodySerializer: (body) => body,
        headers: { 'Content-Type': 'application/x-ndjson' },
      }),
    );
    const fromAsset = await ok(
      client.POST('/private/catalog/imports', {
        params: { query: { format: 'jsonl', assetId: asset.Id } },
      }),
    );
    const cancelled = await client.POST('/private/catalog/imports/{id}/cancel', {
      params: { path: { id: fromAsset.Id } },
    });
    // Cancelled while queued or running; 409 when it had already ended.
    expect([200, 409]).toContain(cancelled.response.status);
  });
});

describe('company: stores and devices', () => {
  it('walks stores, device types, physical devices and their logical devices', async () => {
    const store = await ok(
      client.POST('/management/company/store', {
        body: { Name: 'Kadikoy', Location: { Longitude: 29.03, Latitude: 40.99 } },
      }),
    );
    const fetchedStore = await ok(
      client.GET('/management/company/store/{id}', { params: { path: { id: store.Id } } }),
    );
    await ok(
      client.PUT('/management/company/store/{id}', {
        params: { path: { id: store.Id } },
        body: { ...fetchedStore, Address: 'Moda Cd. 1' },
      }),
    );
    expect((await ok(client.GET('/management/company/stores'))).TotalCount).toBe(1);

    const type = await ok(
      client.POST('/management/company/devicetypes', { body: { Description: 'Kiosk' } }),
    );
    const fetchedType = await ok(
      client.GET('/management/company/devicetypes/{id}', { params: { path: { id: type.Id } } }),
    );
    await ok(
      client.PUT('/management/company/devicetypes/{id}', {
        params: { path: { id: type.Id } },
        body: { ...fetchedType, Description: 'Kiosk (floor)' },
      }),
    );
    expect((await ok(client.GET('/management/company/devicetypes'))).TotalCount).toBe(1);

    const physical = await ok(
      client.POST('/management/company/physicaldevices', {
        body: { DeviceId: 'pd-1', Description: 'Entrance', StoreId: store.Id },
      }),
    );
    const fetchedPhysical = await ok(
      client.GET('/management/company/physicaldevices/{physicalDeviceId}', {
        params: { path: { physicalDeviceId: physical.DeviceId } },
      }),
    );
    expect(fetchedPhysical.StoreName).toBe('Kadikoy');
    await ok(
      client.PUT('/management/company/physicaldevices/{physicalDeviceId}', {
        params: { path: { physicalDeviceId: physical.DeviceId } },
        body: { ...fetchedPhysical, Description: 'Entrance, left' },
      }),
    );
    const related = await ok(
      client.GET('/management/company/physicaldevices', {
        params: { query: { hasStoreRelation: true } },
      }),
    );
    expect(related.Results.map((d) => d.DeviceId)).toEqual(['pd-1']);

    // Logical devices, managed by the management app.
    const devices = '/management/company/physicaldevices/{physicalDeviceId}/devices' as const;
    const device = `${devices}/{deviceId}` as const;
    const path = { physicalDeviceId: 'pd-1', deviceId: 'screen-1' };
    await ok(
      client.POST(devices, {
        params: { path: { physicalDeviceId: 'pd-1' } },
        body: { DeviceId: 'screen-1', Description: 'Screen', DeviceTypeId: type.Id },
      }),
    );
    const fetchedDevice = await ok(client.GET(device, { params: { path } }));
    await ok(
      client.PUT(device, {
        params: { path },
        body: { ...fetchedDevice, Description: 'Screen, left' },
      }),
    );
    expect(
      (await ok(client.GET(devices, { params: { path: { physicalDeviceId: 'pd-1' } } })))
        .TotalCount,
    ).toBe(1);
    await ok(
      client.POST(`${device}/metadata`, {
        params: { path },
        body: { Key: 'floor', Value: '1' },
      }),
    );
    await ok(
      client.PUT(`${device}/metadata/{key}`, {
        params: { path: { ...path, key: 'floor' } },
        body: { Key: 'floor', Value: '2' },
      }),
    );
    expect(await ok(client.GET(`${device}/metadata`, { params: { path } }))).toEqual([
      { Key: 'floor', Value: '2' },
    ]);
    await ok(
      client.DELETE(`${device}/metadata/{key}`, { params: { path: { ...path, key: 'floor' } } }),
    );
    await ok(client.DELETE(`${device}/metadata`, { params: { path } }));

    // The device-facing side, with an identity token of a Device app bound to pd-1.
    const deviceApp = await ok(
      client.POST('/management/oauth/apps', { body: { Name: 'Kiosks', ApplicationTypeId: 4 } }),
    );
    const kiosk = clientFor({
      clientId: deviceApp.ApplicationId,
      clientSecret: present(deviceApp.ApplicationSecret, 'the secret'),
      physicalDeviceId: 'pd-1',
    });
    expect((await ok(kiosk.GET('/company/devicetypes'))).Data.Results[0]?.Description).toBe(
      'Kiosk (floor)',
    );
    const registered = await ok(
      kiosk.POST('/company/logicaldevices', {
        body: {
          DeviceId: 'tablet-1',
          Description: 'Tablet',
          DeviceTypeId: type.Id,
          Metadata: [{ Key: 'lang', Value: 'tr' }],
        },
      }),
    );
    expect(registered.Data.DeviceId).toBe('tablet-1');
    const own = await ok(
      kiosk.GET('/company/logicaldevices/{deviceId}', {
        params: { path: { deviceId: 'tablet-1' } },
      }),
    );
    await ok(
      kiosk.PATCH('/company/logicaldevices/{deviceId}', {
        params: { path: { deviceId: 'tablet-1' } },
        body: { Description: `${own.Data.Description} (2)` },
      }),
    );
    const inStore = await ok(
      kiosk.GET('/company/stores/logicaldevices', {
        params: { query: { metadataKey: 'lang', metadataValue: 'tr', includeMetadata: true } },
      }),
    );
    expect(inStore.Data.map((d) => d.DeviceId)).toEqual(['tablet-1']);
    const nearest = await ok(
      kiosk.GET('/company/stores/{location}/logicaldevices', {
        params: { path: { location: '29.02;40.98' }, query: { searchDistance: 10 } },
      }),
    );
    expect(nearest.Data.map((d) => d.DeviceId).sort()).toEqual(['screen-1', 'tablet-1']);
    await ok(
      kiosk.DELETE('/company/logicaldevices/{deviceId}', {
        params: { path: { deviceId: 'tablet-1' } },
      }),
    );
    await ok(client.DELETE(device, { params: { path } }));

    // Analytics records stamped with the device's store (identity token).
    const accepted = await ok(
      kiosk.POST('/analytics/logs', {
        body: [
          { Counter: 'ItemView', ItemId: itemId },
          { Counter: 'ItemLike', RelatedItemId: itemId },
        ],
      }),
    );
    expect(accepted.Data.Accepted).toBe(2);
    company = { storeId: store.Id, typeId: type.Id, physicalDeviceId: physical.DeviceId };
  });
});

describe('analytics and configuration', () => {
  it('reads logs page by page, summaries and the settings, and runs trending for a day', async () => {
    const logs = await ok(
      client.GET('/private/analytics/servercounters/{counter}/logs', {
        params: {
          path: { counter: 'ItemView' },
          query: {
            from: new Date(Date.now() - 3_600_000).toISOString(),
            to: new Date(Date.now() + 60_000).toISOString(),
            take: 10,
          },
        },
      }),
    );
    expect(logs.Logs).toHaveLength(1);
    expect(logs.ContinuationToken).toBeNull();
    // OLE Automation day numbers: days since 1899-12-30.
    const today = Math.floor(Date.now() / 86_400_000) + 25_569;
    const summary = await ok(
      client.GET('/private/analytics/servercounters/{counter}/summary/{period}', {
        params: {
          path: { counter: 'ItemLike', period: 'daily' },
          query: { startOADate: today - 1, endOADate: today + 1 },
        },
      }),
    );
    expect(summary.map((day) => day.TotalCount)).toEqual([1]);
    const everyCounter = await ok(
      client.GET('/private/analytics/summary/{period}', {
        params: {
          path: { period: 'daily' },
          query: { startOADate: today - 1, endOADate: today + 1 },
        },
      }),
    );
    expect(
      everyCounter
        .find((counter) => counter.Counter === 'ItemLike')
        ?.Periods.map((day) => day.TotalCount),
    ).toEqual([1]);

    const weights = await ok(client.GET('/management/configuration/trendingactiontypes'));
    await ok(
      client.PUT('/management/configuration/trendingactiontypes', {
        body: weights.map((w) => ({ ...w, ImpactValue: w.ImpactValue * 2 })),
      }),
    );
    const settings = await ok(client.GET('/management/configuration/analytics'));
    await ok(client.PUT('/management/configuration/analytics', { body: { ...settings } }));
    const day = new Date().toISOString().slice(0, 10);
    const trending = await ok(
      client.POST('/management/analytics/trending', { params: { query: { date: day } } }),
    );
    expect(trending.Date).toBe(day);
    // The run is a job: its records appear when it ends. Today's view and like of the item, at
    // the doubled weights (2 and 6), decayed by at most one day's half-life.
    const top = await eventually(
      'the trending run of today',
      async () =>
        ok(client.GET('/private/analytics/trendingitems', { params: { query: { take: 5 } } })),
      (state) => (state.Date === day ? state : undefined),
    );
    expect(top).toMatchObject({
      OADate: today,
      Items: [
        { ItemId: itemId, ItemTitle: null, TotalActionCount: 2, TotalActionTypeImpactValue: 8 },
      ],
    });
    const score = present(top.Items[0], 'the trending item').TotalTimeImpactValue;
    expect(score).toBeGreaterThanOrEqual(4);
    expect(score).toBeLessThan(8);
  });
});

describe('the integration endpoint', () => {
  it('creates the endpoint, waits until it is live, rotates its key and deletes it', async () => {
    await ok(
      client.POST('/management/integration/endpoint', {
        body: { ServiceName: 'acme-shop', ServiceTier: 0, AdminMail: 'ops@acme.example' },
      }),
    );
    const live = await eventually(
      'the live endpoint',
      () => ok(client.GET('/management/integration/endpoint')),
      (endpoint) => (endpoint.Status === 2 ? endpoint : undefined),
    );
    expect(live.ServiceName).toBe('acme-shop');
    const key = await ok(client.GET('/management/integration/endpoint/subscriptionkey'));
    const rotated = await ok(client.POST('/management/integration/endpoint/subscriptionkey'));
    expect(rotated.SubscriptionKey).not.toBe(key.SubscriptionKey);
    await ok(client.DELETE('/management/integration/endpoint'));
  });
});

describe('events and webhooks', () => {
  it('subscribes, receives a signed delivery, replays it and reads the event feed', async () => {
    const hook = `http://127.0.0.1:${receiverPort}/hook`;
    const subscription = await ok(
      client.POST('/management/webhooks', {
        body: { Url: hook, EventTypes: ['brand.*'], Description: 'brands' },
      }),
    );
    const fetched = await ok(
      client.GET('/management/webhooks/{id}', { params: { path: { id: subscription.Id } } }),
    );
    await ok(
      client.PUT('/management/webhooks/{id}', {
        params: { path: { id: subscription.Id } },
        body: { ...fetched, Description: 'brand changes' },
      }),
    );
    expect((await ok(client.GET('/management/webhooks'))).TotalCount).toBe(1);
    const rotated = await ok(
      client.POST('/management/webhooks/{id}/secret', {
        params: { path: { id: subscription.Id } },
      }),
    );
    expect(rotated.Secret).toMatch(/^whsec_/);

    const from = new Date().toISOString();
    await ok(client.POST('/private/catalog/brand', { body: { Name: 'Hooked' } }));
    const id = subscription.Id;
    const delivery = await eventually(
      'the delivery',
      () =>
        ok(
          client.GET('/management/webhooks/{id}/deliveries', {
            params: { path: { id }, query: { status: 'Succeeded' } },
          }),
        ),
      (list) => list.Results[0],
    );
    const one = await ok(
      client.GET('/management/webhooks/{id}/deliveries/{deliveryId}', {
        params: { path: { id, deliveryId: delivery.Id } },
      }),
    );
    expect(one.EventType).toBe('brand.created');
    await ok(
      client.POST('/management/webhooks/{id}/deliveries/{deliveryId}/replay', {
        params: { path: { id, deliveryId: delivery.Id } },
      }),
    );
    await ok(
      client.POST('/management/webhooks/{id}/replay', {
        params: { path: { id } },
        body: { From: from, To: new Date(Date.now() + 1000).toISOString() },
      }),
    );
    const feed = await ok(client.GET('/management/events', { params: { query: { take: 1000 } } }));
    expect(feed.Results.map((event) => event.Type)).toContain('brand.created');
    await ok(client.DELETE('/management/webhooks/{id}', { params: { path: { id } } }));
  });
});

describe('the change history', () => {
  /** The newest entry the walk left of a resource kind, read from the tenant-wide list. */
  const newestOf = async (ResourceType: string) => {
    const page = await ok(
      client.GET('/management/history', { params: { query: { ResourceType, Take: 1 } } }),
    );
    const [entry] = page.Results;
    expect(entry, `an entry of ${ResourceType}`).toBeDefined();
    return entry!;
  };

  it("reads each resource kind's history and a version of it, through the typed client", async () => {
    const { storeId, physicalDeviceId } = company;
    const logical = await newestOf('logical_device');
    // Each kind's history at its path, its ids as the API names them, and its first version.
    const kinds: [string, Record<string, string | number>][] = [
      ['/private/catalog/item/{id}', { id: itemId }],
      ['/private/catalog/brand/{id}', { id: catalog.brandId }],
      ['/private/catalog/category/{id}', { id: catalog.categoryId }],
      ['/private/catalog/tag/{id}', { id: catalog.tagId }],
      ['/private/catalog/dynamicattributetypes/{id}', { id: catalog.typeId }],
      ['/private/catalog/pricetype/{id}', { id: catalog.priceTypeId }],
      ['/management/storage/asset/{id}', { id: Number((await newestOf('asset')).ResourceId) }],
      ['/management/company/store/{id}', { id: storeId }],
      ['/management/company/physicaldevices/{physicalDeviceId}', { physicalDeviceId }],
      [
        '/management/company/physicaldevices/{physicalDeviceId}/devices/{deviceId}',
        { physicalDeviceId, deviceId: logical.ResourceId },
      ],
      ['/management/oauth/apps/{applicationId}', { applicationId: acme.appId }],
      [
        '/management/webhooks/{id}',
        { id: Number((await newestOf('webhook_subscription')).ResourceId) },
      ],
      ['/management/security/members/{id}', { id: (await newestOf('member')).ResourceId }],
      [
        '/management/security/members/invitations/{id}',
        { id: (await newestOf('invitation')).ResourceId },
      ],
      ['/management/integration/endpoint', {}],
    ];
    for (const [path, ids] of kinds) {
      // One generic call per path: the typed client's paths are a union these strings belong to.
      const get = client.GET as unknown as (
        url: string,
        init: { params: { path: Record<string, string | number> } },
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const history = await get(`${path}/history`, { params: { path: ids } });
      expect(history.response.status, path).toBe(200);
      const versions = (history.data as { Results: { Version: number }[] }).Results;
      expect(versions.length, path).toBeGreaterThan(0);
      const version = await get(`${path}/history/{version}`, {
        params: { path: { ...ids, version: versions.at(-1)!.Version } },
      });
      expect(version.response.status, path).toBe(200);
      expect((version.data as { Data?: unknown }).Data, path).toBeDefined();
    }
  });

  it('restores an item, a brand and a category to their first version', async () => {
    const restored = await ok(
      client.POST('/private/catalog/brand/{id}/history/{version}/restore', {
        params: { path: { id: catalog.brandId, version: 1 } },
      }),
    );
    expect(restored.Id).toBe(catalog.brandId);
    await ok(
      client.POST('/private/catalog/category/{id}/history/{version}/restore', {
        params: { path: { id: catalog.categoryId, version: 1 } },
      }),
    );
    const item = await ok(
      client.POST('/private/catalog/item/{id}/history/{version}/restore', {
        params: { path: { id: itemId, version: 1 } },
      }),
    );
    expect(item.Id).toBe(itemId);
  });

  it('sets the retention, and exports the sealed entries as NDJSON', async () => {
    const settings = await client.GET('/management/history/settings');
    expect(settings.response.status).toBe(200);
    const etag = settings.response.headers.get('etag') ?? '';
    await ok(
      client.PUT('/management/history/settings', {
        body: { RetentionDays: 500 },
        headers: { 'If-Match': etag },
      }),
    );
    const exported = await client.GET('/management/history/export', { parseAs: 'text' });
    expect(exported.response.status).toBe(200);
    expect(exported.response.headers.get('content-type')).toContain('application/x-ndjson');
  });
});

describe('errors, retries and cleanup', () => {
  it('throws the contract error body as an ApiError', async () => {
    const failure = await ok(
      client.GET('/private/catalog/item/{id}', { params: { path: { id: 999_999 } } }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    if (!(failure instanceof ApiError)) return;
    expect(failure.status).toBe(404);
    expect(failure.code).toBe('NotFound');
    expect(failure.requestId).toBe(failure.body?.IdentifierGuid);
  });

  it('sends every write with an Idempotency-Key, and the same key answers the stored result', async () => {
    const key = randomBytes(8).toString('hex');
    const first = await client.POST('/private/catalog/tag', {
      body: { Name: 'idempotent' },
      headers: { 'Idempotency-Key': key },
    });
    const again = await client.POST('/private/catalog/tag', {
      body: { Name: 'idempotent' },
      headers: { 'Idempotency-Key': key },
    });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data?.Id).toBe(first.data?.Id);
  });

  it('deletes what the walk made, the referenced last', async () => {
    const { storeId, typeId, physicalDeviceId } = company;
    await ok(
      client.DELETE('/management/company/physicaldevices/{physicalDeviceId}', {
        params: { path: { physicalDeviceId } },
      }),
    );
    await ok(
      client.DELETE('/management/company/devicetypes/{id}', { params: { path: { id: typeId } } }),
    );
    await ok(
      client.DELETE('/management/company/store/{id}', { params: { path: { id: storeId } } }),
    );
    await ok(client.DELETE('/private/catalog/item/{id}', { params: { path: { id: itemId } } }));
    for (const item of (
      await ok(client.GET('/private/catalog/items', { params: { query: { take: 1000 } } }))
    ).Results)
      await ok(client.DELETE('/private/catalog/item/{id}', { params: { path: { id: item.Id } } }));
    const { brandId, tagId, priceTypeId, typeId: attributeTypeId, categoryId } = catalog;
    await ok(client.DELETE('/private/catalog/brand/{id}', { params: { path: { id: brandId } } }));
    await ok(client.DELETE('/private/catalog/tag/{id}', { params: { path: { id: tagId } } }));
    await ok(
      client.DELETE('/private/catalog/pricetype/{id}', { params: { path: { id: priceTypeId } } }),
    );
    await ok(
      client.DELETE('/private/catalog/dynamicattributetypes/{id}', {
        params: { path: { id: attributeTypeId } },
      }),
    );
    await ok(
      client.DELETE('/private/catalog/category/{id}', { params: { path: { id: categoryId } } }),
    );
    for (const asset of (
      await ok(client.GET('/management/storage/assets', { params: { query: { take: 1000 } } }))
    ).Results)
      await ok(
        client.DELETE('/management/storage/asset/{id}', {
          params: { path: { id: asset.Id }, query: { force: true } },
        }),
      );
  });
});

describe('coverage of the document', () => {
  it('called every operation of the OpenAPI document', () => {
    const document = api.app.swagger();
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'patch', 'delete', 'head']
        .filter((method) => item !== undefined && method in item)
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.filter((operation) => !called.has(operation))).toEqual([]);
    expect(called.size).toBe(operations.length);
  });

  it('went through Prism with no violation', () => {
    console.log(
      `the walk through Prism: ${prism.checked} requests, ${prism.violations.length} violations`,
    );
    expect(prism.violations).toEqual([]);
  });
});
