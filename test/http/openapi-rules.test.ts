// Rules the server checks itself, as the OpenAPI document states them (docs/api.md, "The OpenAPI
// document"): closed value sets are enums, and every value an enum lists is one the server
// takes; a price names its type, and the document's schema refuses what the server refuses.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { expectError, expectStatus } from '../support/expectations.ts';
import { useStartedApi, useTenant } from '../support/test-api.ts';
import { COUNTERS } from '../../src/modules/analytics/analytics-counters.ts';
import { ingest, oaDate, sample } from '../modules/analytics/analytics-fixtures.ts';
import { createItem, createPriceType } from '../modules/catalog/catalog-fixtures.ts';
import { jpeg, pdf, png, startStorageApi, uploadRaw } from '../modules/storage/storage-fixtures.ts';

const api = useStartedApi(() => startStorageApi('disk'));
const acme = useTenant(api, 'acme');

type Schema = {
  enum?: string[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
};
interface Operation {
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

let document: { paths: Record<string, Record<string, Operation>> } | undefined;
async function operation(method: string, path: string): Promise<Operation> {
  document ??= (await api.app.inject({ url: '/openapi.json' })).json();
  const found = document!.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
}

/** The enum of a string schema, or of the string member of a nullable one. */
function enumOf(schema: Schema | undefined, what: string): string[] {
  const values = schema?.enum ?? schema?.anyOf?.find((member) => member.enum)?.enum;
  if (!values) throw new Error(`${what} has no enum`);
  return values;
}

const parameterEnum = async (method: string, path: string, name: string) =>
  enumOf(
    (await operation(method, path)).parameters?.find((p) => p.name === name)?.schema,
    `${method} ${path} ${name}`,
  );
const bodyProperty = async (method: string, path: string, ...names: string[]) => {
  const body = (await operation(method, path)).requestBody!.content;
  let schema = (body['application/json'] ?? body['application/x-www-form-urlencoded'])!.schema;
  for (const name of names)
    schema = name === '[]' ? schema.items! : (schema.properties?.[name] ?? {});
  return schema;
};

describe('enums of closed value sets', () => {
  it('analytics: every counter and period listed is one the server takes', async () => {
    const counters = await parameterEnum(
      'get',
      '/private/analytics/servercounters/{counter}/summary/{period}',
      'counter',
    );
    expect(counters.sort()).toEqual(COUNTERS.map((c) => c.name).sort());
    const periods = await parameterEnum(
      'get',
      '/private/analytics/servercounters/{counter}/summary/{period}',
      'period',
    );
    expect(periods).toEqual(['daily', 'weekly', 'monthly', 'yearly']);
    const day = oaDate('2025-06-10');
    for (const counter of counters)
      for (const period of periods)
        expectStatus(
          await api.call({
            url: `/private/analytics/servercounters/${counter}/summary/${period}?startOADate=${day}&endOADate=${day}`,
            tenant: acme,
          }),
          200,
        );
    // The server also takes them in any case (v4 clients do), and answers its own code otherwise.
    expectStatus(
      await api.call({
        url: `/private/analytics/servercounters/itemview/summary/DAILY?startOADate=${day}&endOADate=${day}`,
        tenant: acme,
      }),
      200,
    );
    expectError(
      await api.call({
        url: `/private/analytics/servercounters/NoSuchCounter/summary/daily?startOADate=${day}&endOADate=${day}`,
        tenant: acme,
      }),
      404,
      'UnknownCounter',
    );

    const ingested = enumOf(
      await bodyProperty('post', '/analytics/logs', '[]', 'Counter'),
      'a record’s Counter',
    );
    const records = ingested.map((name) => sample(COUNTERS.find((c) => c.name === name)!));
    expectStatus(await ingest(api, acme, records), 202);
  });

  it('analytics settings: every time zone listed is one the server takes', async () => {
    const zones = enumOf(
      await bodyProperty('put', '/management/configuration/analytics', 'TimeZone'),
      'TimeZone',
    );
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Istanbul');
    for (const zone of zones)
      expectStatus(
        await api.call({
          method: 'PUT',
          url: '/management/configuration/analytics',
          tenant: acme,
          body: { TimeZone: zone },
        }),
        200,
      );
  });

  it('trending weights: every counter listed is one the server takes', async () => {
    const counters = enumOf(
      await bodyProperty('put', '/management/configuration/trendingactiontypes', '[]', 'Counter'),
      'a weight’s Counter',
    );
    expectStatus(
      await api.call({
        method: 'PUT',
        url: '/management/configuration/trendingactiontypes',
        tenant: acme,
        body: counters.map((Counter) => ({ Counter, ImpactValue: 1 })),
      }),
      200,
    );
  });

  it('item search: every ordering listed is one the server takes', async () => {
    const priceType = await createPriceType(api, acme);
    const properties = enumOf(
      await bodyProperty('post', '/private/catalog/items', 'OrderedPropertyName'),
      'OrderedPropertyName',
    );
    const directions = enumOf(
      await bodyProperty('post', '/private/catalog/items', 'OrderBy'),
      'OrderBy',
    );
    expect(directions).toEqual(['Asc', 'Desc']);
    for (const OrderedPropertyName of properties)
      for (const OrderBy of directions)
        expectStatus(
          await api.call({
            method: 'POST',
            url: '/private/catalog/items',
            tenant: acme,
            body: {
              OrderedPropertyName,
              OrderBy,
              Query: OrderedPropertyName === 'Relevance' ? 'a' : null,
              // Ordering by price names the price type whose prices order.
              PriceTypeId: OrderedPropertyName === 'Price' ? priceType.Id : null,
            },
          }),
          200,
        );
  });

  it('webhook subscriptions: every event type pattern listed is one the server takes', async () => {
    const patterns = enumOf(
      await bodyProperty('post', '/management/webhooks', 'EventTypes', '[]'),
      'EventTypes[]',
    );
    expect(patterns).toContain('*');
    expect(patterns).toContain('item.*');
    expect(patterns).toContain('integration_endpoint.status_changed');
    const created = await api.call({
      method: 'POST',
      url: '/management/webhooks',
      tenant: acme,
      body: { Url: 'https://hooks.example.com/omni', EventTypes: patterns },
    });
    expectStatus(created, 201);
  });

  it('members: every role listed is one the server takes', async () => {
    const roles = enumOf(
      await bodyProperty('post', '/management/security/members', 'Roles', '[]', 'Id'),
      'Roles[].Id',
    );
    const listed = (await api.call({ url: '/management/security/roles', tenant: acme })).json<{
      Results: { Id: string }[];
    }>();
    expect(roles.sort()).toEqual(listed.Results.map((role) => role.Id).sort());
    expectStatus(
      await api.call({
        method: 'POST',
        url: '/management/security/members',
        tenant: acme,
        body: {
          Username: 'every-role',
          Name: 'Every role',
          Password: 'violet-Harbor-lamp-92',
          Roles: roles.map((Id) => ({ Id })),
        },
      }),
      201,
    );
  });

  it('the token endpoint lists its grant types', async () => {
    const grants = enumOf(await bodyProperty('post', '/oauth/token', 'grant_type'), 'grant_type');
    expect(grants.sort()).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
  });
});

describe('rules beyond one field', () => {
  it('a price names its type (PriceTypeId or CurrencyId): the schema refuses what the server does', async () => {
    const schema = await bodyProperty('put', '/private/catalog/items/{id}/prices');
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const item = await createItem(api, acme);
    const priceType = await createPriceType(api, acme);
    const put = (prices: unknown) =>
      api.call({
        method: 'PUT',
        url: `/private/catalog/items/${item.Id}/prices`,
        tenant: acme,
        body: prices,
      });
    for (const price of [
      { NormalPrice: 10, PriceTypeId: priceType.Id },
      { NormalPrice: 10, CurrencyId: priceType.Id },
      { NormalPrice: 10, PriceTypeId: priceType.Id, CurrencyId: priceType.Id },
    ]) {
      expect(validate([price]), JSON.stringify(price)).toBe(true);
      expectStatus(await put([price]), 200);
    }
    const untyped = [{ NormalPrice: 10, DiscountPrice: 5 }];
    expect(validate(untyped)).toBe(false);
    const refused = expectError(await put(untyped), 400, 'ValidationFailed');
    expect(refused.Errors?.[0]?.Field).toBe('Prices.0.PriceTypeId');
  });
});

describe('request media types', () => {
  it('the raw upload lists real media types, and the server takes them', async () => {
    const content = (await operation('post', '/management/storage/asset/raw')).requestBody!.content;
    const types = Object.keys(content);
    expect(types).not.toContain('*/*');
    for (const type of types) expect(type).toMatch(/^[a-z]+\/([a-z0-9.+-]+|\*)$/);
    // What a generated client sends unless told: the first one listed.
    expect(types[0]).toBe('image/png');
    const bytes: Record<string, Buffer> = { 'image/png': png(), 'image/jpeg': jpeg() };
    for (const type of types.filter((t) => !t.endsWith('/*'))) {
      if (type.startsWith('image/') && !bytes[type]) continue;
      const body = bytes[type] ?? (type === 'application/pdf' ? pdf() : Buffer.from('a,b\n1,2\n'));
      const response = await uploadRaw(api, acme, body, type, 'file');
      expect(response.statusCode, `${type}: ${response.body}`).toBe(201);
      expect(response.json<{ MimeType: string }>().MimeType).toBe(type);
    }
    // */* names no media type: a client that sends it is told so.
    expectError(await uploadRaw(api, acme, pdf(), '*/*', 'file'), 400, 'InvalidMimeType');
  });
});
