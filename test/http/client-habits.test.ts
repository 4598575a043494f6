// What common HTTP clients do that a server must take: jQuery's `Content-Type: application/json`
// on requests without a body (a DELETE, a body-less POST action), and reading an answer with no
// body, which must then carry no JSON content type (jQuery and Prism parse what is declared JSON
// and fail on nothing). Sent over a real socket, as a browser's request arrives.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpCall, type HttpAnswer } from '../support/http-call.ts';
import { useStartedApi, useTenant } from '../support/test-api.ts';
import { CATALOG, createBrand, createItem, unique } from '../modules/catalog/catalog-fixtures.ts';
import { createAsset, pdf, startStorageApi } from '../modules/storage/storage-fixtures.ts';
import { ENDPOINT, KEY_PATH, waitForStatus } from '../modules/integration/integration-fixtures.ts';

const api = useStartedApi(() => startStorageApi('disk', { JOB_POLLING_INTERVAL_SECONDS: '1' }));
const acme = useTenant(api, 'acme');
let port: number;

beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

/** What `$.ajax({ type, url, contentType: 'application/json; charset=UTF-8' })` sends. */
const JQUERY = 'application/json; charset=UTF-8';

function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<HttpAnswer> {
  return httpCall(port, {
    method,
    path,
    host: acme.host,
    headers: {
      accept: 'application/json, text/javascript, */*; q=0.01',
      authorization: `Bearer ${acme.token}`,
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  });
}

/** A request as jQuery sends it without data: the JSON content type and no body. */
const jquery = (method: string, path: string, headers: Record<string, string> = {}) =>
  call(method, path, { 'content-type': JQUERY, ...headers });

function expectStatus(answer: HttpAnswer, status: number): void {
  expect(answer.status, answer.text).toBe(status);
}

/** An answer without a body: nothing that declares one, so no client tries to parse it. */
function expectNoBody(answer: HttpAnswer): void {
  expect(answer.text).toBe('');
  expect(answer.headers['content-type'], 'Content-Type of an empty answer').toBeUndefined();
}

async function createApp(): Promise<string> {
  const answer = await call(
    'POST',
    '/management/oauth/apps',
    { 'content-type': JQUERY },
    JSON.stringify({ Name: unique('App'), ApplicationTypeId: 2 }),
  );
  expectStatus(answer, 201);
  return (JSON.parse(answer.text) as { ApplicationId: string }).ApplicationId;
}

describe('a JSON content type on a request without a body', () => {
  it('is a DELETE without a body, with Content-Length: 0 or without it', async () => {
    const lengths: Record<string, string>[] = [{}, { 'content-length': '0' }];
    for (const headers of lengths) {
      const brand = await createBrand(api, acme);
      const answer = await jquery('DELETE', `${CATALOG}/brand/${brand.Id}`, headers);
      expectStatus(answer, 204);
      expectNoBody(answer);
    }
  });

  it.each([
    ['an app', '/management/oauth/apps'],
    ['a webhook subscription', '/management/webhooks'],
  ])('is a body-less POST: rotating the secret of %s', async (_what, collection) => {
    const id =
      collection === '/management/webhooks'
        ? await (async () => {
            const created = await call(
              'POST',
              collection,
              { 'content-type': JQUERY },
              JSON.stringify({
                Url: 'https://hooks.example.com/omni',
                EventTypes: ['integration_endpoint.deleted'],
              }),
            );
            expectStatus(created, 201);
            return String((JSON.parse(created.text) as { Id: number }).Id);
          })()
        : await createApp();
    const answer = await jquery('POST', `${collection}/${id}/secret`);
    expectStatus(answer, 200);
    expect(answer.text).toContain('Secret');
  });

  it('is a body-less POST: ungrouping a variant group', async () => {
    const [master, variant] = [await createItem(api, acme), await createItem(api, acme)];
    const grouped = await call(
      'POST',
      `${CATALOG}/items/${master.Id}/group`,
      { 'content-type': JQUERY },
      JSON.stringify([variant.Id]),
    );
    expectStatus(grouped, 200);
    const answer = await jquery('POST', `${CATALOG}/items/${master.Id}/ungroup`);
    expectStatus(answer, 204);
    expectNoBody(answer);
  });

  it('is a body-less POST: relating an asset named in the query', async () => {
    const item = await createItem(api, acme);
    const asset = await createAsset(api, acme, pdf(), 'application/pdf', 'manual.pdf');
    const answer = await jquery(
      'POST',
      `${CATALOG}/items/${item.Id}/document?assetId=${asset.Id}&isDefault=true`,
    );
    expectStatus(answer, 201);
    expect(JSON.parse(answer.text)).toEqual({
      AssetId: asset.Id,
      RelatedId: item.Id,
      IsDefault: true,
    });
  });

  it('is a body-less POST: an import of an uploaded asset (a route that takes only files)', async () => {
    const file = Buffer.from(`${JSON.stringify({ Title: unique('Imported') })}\n`);
    const asset = await createAsset(api, acme, file, 'application/x-ndjson', 'items.jsonl');
    const answer = await jquery('POST', `${CATALOG}/imports?assetId=${asset.Id}`);
    expectStatus(answer, 202);
    expect(JSON.parse(answer.text)).toMatchObject({ SourceAssetId: asset.Id });
    // A JSON body there is still not a file it takes.
    const json = await call(
      'POST',
      `${CATALOG}/imports?assetId=${asset.Id}`,
      { 'content-type': JQUERY },
      '{}',
    );
    expectStatus(json, 415);
    expect(JSON.parse(json.text)).toMatchObject({ Code: 'UnsupportedMediaType' });
  });

  it('is a body-less POST: running trending for a day', async () => {
    const answer = await jquery('POST', '/management/analytics/trending?date=2025-06-10');
    expectStatus(answer, 202);
    expect(JSON.parse(answer.text)).toEqual({ Date: '2025-06-10' });
  });

  it('is 400 EmptyBody on a route that takes a body, as a request with no content type', async () => {
    const brand = await createBrand(api, acme);
    for (const [method, path] of [
      ['POST', `${CATALOG}/brand`],
      ['PUT', `${CATALOG}/brand/${brand.Id}`],
      ['POST', '/management/oauth/apps'],
    ] as const) {
      for (const answer of [await jquery(method, path), await call(method, path)]) {
        expectStatus(answer, 400);
        expect(JSON.parse(answer.text), `${method} ${path}`).toMatchObject({ Code: 'EmptyBody' });
      }
    }
  });
});

describe('an answer without a body', () => {
  it('carries no content type when the integration endpoint is created (201, Location)', async () => {
    const answer = await call(
      'POST',
      ENDPOINT,
      { 'content-type': JQUERY },
      JSON.stringify({ ServiceName: 'acme-habits', ServiceTier: 0, AdminMail: 'ops@acme.example' }),
    );
    expectStatus(answer, 201);
    expect(answer.headers.location).toBe(ENDPOINT);
    expectNoBody(answer);
    // The body-less POST and DELETE of the endpoint's own routes, as jQuery sends them.
    await waitForStatus(api, acme, [2]);
    const key = await jquery('POST', KEY_PATH);
    expectStatus(key, 200);
    expect(JSON.parse(key.text)).toHaveProperty('SubscriptionKey');
    const deleted = await jquery('DELETE', ENDPOINT);
    expectStatus(deleted, 204);
    expectNoBody(deleted);
  });

  it('carries no content type when an idempotent create is replayed', async () => {
    const body = JSON.stringify({
      ServiceName: 'acme-replayed',
      ServiceTier: 0,
      AdminMail: 'ops@acme.example',
    });
    const headers = { 'content-type': JQUERY, 'idempotency-key': randomUUID() };
    const first = await call('POST', ENDPOINT, headers, body);
    expectStatus(first, 201);
    const replayed = await call('POST', ENDPOINT, headers, body);
    expectStatus(replayed, 201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expectNoBody(replayed);
    expectStatus(await jquery('DELETE', ENDPOINT), 204);
  });

  it('carries no content type on a 204', async () => {
    const app = await createApp();
    const answer = await call('DELETE', `/management/oauth/apps/${app}`);
    expectStatus(answer, 204);
    expectNoBody(answer);
  });
});
