// The hand-written layer of the TypeScript client against the API on a real port: tokens
// fetched once and renewed, retries that keep one Idempotency-Key per call, Retry-After, and the
// calls that must not be sent twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSource } from '../../clients/typescript/src/auth.ts';
import {
  ACCEPT,
  ApiError,
  OAuthError,
  createManagementClient,
  ok,
  pages,
  retryAfterMs,
  type ManagementClientOptions,
} from '../../clients/typescript/src/index.ts';
import { startListeningApi } from '../support/listening-api.ts';
import { loopbackFetch } from '../support/loopback-fetch.ts';
import type { TestApi, TestTenant } from '../support/test-api.ts';

let api: TestApi;
let acme: TestTenant;
let baseUrl: string;

beforeAll(async () => {
  const started = await startListeningApi();
  api = started.api;
  acme = await api.createTenant('acme');
  baseUrl = `http://acme.${api.config.apiHost}:${started.port}`;
});
afterAll(() => api?.close());

/** The requests a client sent, with the Idempotency-Key and Authorization of each. */
interface Sent {
  method: string;
  path: string;
  key: string | null;
  authorization: string | null;
}

/** A fetch that records what is sent and lets a test decide, attempt by attempt, what happens. */
function recordingFetch(
  answer: (request: Request, attempt: number) => Promise<Response> | 'send' | 'lose',
) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    sent.push({
      method: request.method,
      path,
      key: request.headers.get('Idempotency-Key'),
      authorization: request.headers.get('Authorization'),
    });
    const attempt = sent.filter((s) => s.method === request.method && s.path === path).length;
    const decided = answer(request, attempt);
    if (decided === 'send') return loopbackFetch(request);
    if (decided === 'lose') {
      // The request reached the server and ran; its answer is lost on the way back.
      const response = await loopbackFetch(request);
      await response.arrayBuffer();
      throw new TypeError('fetch failed (connection reset)');
    }
    return decided;
  };
  return { sent, fetch };
}

function client(
  fetch: ManagementClientOptions['fetch'],
  extra: Partial<ManagementClientOptions> = {},
) {
  return createManagementClient({
    baseUrl,
    auth: { clientId: acme.appId, clientSecret: acme.secret },
    retry: { baseDelayMs: 10 },
    ...extra,
    fetch,
  });
}

async function tagCount(name: string): Promise<number> {
  const listed = await ok(
    client(loopbackFetch).GET('/private/catalog/tags', { params: { query: { take: 1000 } } }),
  );
  return listed.Results.filter((tag) => tag.Name === name).length;
}

describe('writes sent again', () => {
  it('a POST whose answer was lost is sent again with the same key and answered from the stored result', async () => {
    const { sent, fetch } = recordingFetch((request, attempt) =>
      request.url.endsWith('/private/catalog/tag') && attempt === 1 ? 'lose' : 'send',
    );
    const { data, response } = await client(fetch).POST('/private/catalog/tag', {
      body: { Name: 'lost-answer' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(data?.Name).toBe('lost-answer');
    const posts = sent.filter((s) => s.method === 'POST' && s.path === '/private/catalog/tag');
    expect(posts).toHaveLength(2);
    expect(posts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]?.key).toBe(posts[0]?.key);
    expect(await tagCount('lost-answer')).toBe(1);
  });

  it('each call has a key of its own, and a key the caller gives is kept', async () => {
    const { sent, fetch } = recordingFetch(() => 'send');
    const tags = client(fetch);
    await ok(tags.POST('/private/catalog/tag', { body: { Name: 'first' } }));
    await ok(tags.POST('/private/catalog/tag', { body: { Name: 'second' } }));
    await ok(
      tags.POST('/private/catalog/tag', {
        body: { Name: 'third' },
        headers: { 'Idempotency-Key': 'my-own-key-1' },
      }),
    );
    const keys = sent.filter((s) => s.method === 'POST' && s.path === '/private/catalog/tag');
    expect(new Set(keys.map((s) => s.key)).size).toBe(3);
    expect(keys[2]?.key).toBe('my-own-key-1');
    // The token request carries none: the token endpoint keeps no keys.
    expect(sent.find((s) => s.path === '/oauth/token')?.key).toBeNull();
  });

  it('a POST without a key is not sent twice: its failure reaches the caller', async () => {
    const { sent, fetch } = recordingFetch((request, attempt) =>
      request.url.endsWith('/private/catalog/tag') && attempt === 1 ? 'lose' : 'send',
    );
    const noKeys = client(fetch, { idempotencyKeys: false });
    await expect(noKeys.POST('/private/catalog/tag', { body: { Name: 'once' } })).rejects.toThrow(
      'connection reset',
    );
    expect(sent.filter((s) => s.path === '/private/catalog/tag')).toHaveLength(1);
    expect(await tagCount('once')).toBe(1);
  });

  it('a GET is sent again after a network error, a DELETE after a 503', async () => {
    const tag = await ok(
      client(loopbackFetch).POST('/private/catalog/tag', { body: { Name: 'to-delete' } }),
    );
    const { sent, fetch } = recordingFetch((request, attempt) => {
      if (request.method === 'GET' && attempt === 1) return 'lose';
      if (request.method === 'DELETE' && attempt === 1)
        return Promise.resolve(new Response('busy', { status: 503 }));
      return 'send';
    });
    const retrying = client(fetch);
    expect(
      (await ok(retrying.GET('/private/catalog/tag/{id}', { params: { path: { id: tag.Id } } })))
        .Name,
    ).toBe('to-delete');
    await ok(retrying.DELETE('/private/catalog/tag/{id}', { params: { path: { id: tag.Id } } }));
    expect(sent.filter((s) => s.method === 'GET' && s.path !== '/oauth/token')).toHaveLength(2);
    expect(sent.filter((s) => s.method === 'DELETE')).toHaveLength(2);
  });
});

describe('Retry-After', () => {
  it('waits as a 503 or 429 asks before the next attempt', async () => {
    let first = 0;
    const { sent, fetch } = recordingFetch((request, attempt) => {
      if (request.method !== 'GET' || attempt > 1) return 'send';
      first = Date.now();
      return Promise.resolve(
        new Response('slow down', { status: 429, headers: { 'Retry-After': '1' } }),
      );
    });
    const listed = await ok(client(fetch).GET('/private/catalog/tags'));
    expect(listed.TotalCount).toBeGreaterThanOrEqual(0);
    const gets = sent.filter((s) => s.method === 'GET');
    expect(gets).toHaveLength(2);
    expect(Date.now() - first).toBeGreaterThanOrEqual(950);
  });

  it('answers a Retry-After longer than maxDelayMs as it came, without waiting', async () => {
    const { sent, fetch } = recordingFetch((request) =>
      request.method === 'GET'
        ? Promise.resolve(new Response('{}', { status: 503, headers: { 'Retry-After': '3600' } }))
        : 'send',
    );
    const impatient = client(fetch, { retry: { maxDelayMs: 1000 } });
    const started = Date.now();
    const { response } = await impatient.GET('/private/catalog/tags');
    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sent.filter((s) => s.method === 'GET')).toHaveLength(1);
  });

  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('tokens', () => {
  it('gets one token for many calls, and concurrent first calls share it', async () => {
    const { sent, fetch } = recordingFetch(() => 'send');
    const shared = client(fetch);
    await Promise.all(Array.from({ length: 5 }, () => ok(shared.GET('/private/catalog/tags'))));
    await ok(shared.GET('/private/catalog/brands'));
    expect(sent.filter((s) => s.path === '/oauth/token')).toHaveLength(1);
    expect(new Set(sent.filter((s) => s.method === 'GET').map((s) => s.authorization)).size).toBe(
      1,
    );
  });

  it('renews the token before it expires', async () => {
    let now = Date.now();
    const { sent, fetch } = recordingFetch(() => 'send');
    const source = tokenSource(
      { clientId: acme.appId, clientSecret: acme.secret },
      baseUrl,
      fetch,
      ACCEPT,
      () => now,
    );
    const first = await source.token();
    now += 3_000_000; // 50 minutes of the 60: still good
    expect(await source.token()).toBe(first);
    now += 560_000; // 59 min 20 s: within the last minute
    const renewed = await source.token();
    expect(renewed).not.toBe(first);
    expect(sent.filter((s) => s.path === '/oauth/token')).toHaveLength(2);
  });

  it('gets a new token when the API refuses the cached one (revoked), and sends the call again', async () => {
    const { sent, fetch } = recordingFetch(() => 'send');
    const revocable = client(fetch);
    await ok(revocable.GET('/private/catalog/tags'));
    const token = present(sent.find((s) => s.path !== '/oauth/token')?.authorization);
    await ok(
      createManagementClient({ baseUrl, fetch: loopbackFetch }).POST('/oauth/revoke', {
        body: { token: token.replace('Bearer ', '') },
        bodySerializer: (body) => new URLSearchParams(body).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${acme.appId}:${acme.secret}`).toString('base64')}`,
        },
      }),
    );
    await ok(revocable.GET('/private/catalog/tags'));
    expect(sent.filter((s) => s.path === '/oauth/token')).toHaveLength(2);
    const gets = sent.filter((s) => s.method === 'GET').map((s) => s.authorization);
    expect(gets).toEqual([token, token, expect.not.stringContaining(token) as unknown]);
  });

  it('throws an OAuthError for refused credentials', async () => {
    const wrong = createManagementClient({
      baseUrl,
      auth: { clientId: acme.appId, clientSecret: 'not-the-secret' },
      fetch: loopbackFetch,
    });
    const failure = await wrong.GET('/private/catalog/tags').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    expect(failure).toMatchObject({ status: 401, error: 'invalid_client' });
  });
});

describe('pages and errors', () => {
  it('pages walks every item of a list, a page at a time', async () => {
    const tags = client(loopbackFetch);
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5'])
      await ok(tags.POST('/private/catalog/tag', { body: { Name: name } }));
    const { sent, fetch } = recordingFetch(() => 'send');
    const paged = client(fetch);
    const names: string[] = [];
    for await (const tag of pages(
      (range) => paged.GET('/private/catalog/tags', { params: { query: range } }),
      { take: 2 },
    ))
      names.push(tag.Name);
    const total = (await ok(tags.GET('/private/catalog/tags'))).TotalCount;
    expect(names).toHaveLength(total);
    expect(names).toEqual(expect.arrayContaining(['p1', 'p2', 'p3', 'p4', 'p5']));
    expect(sent.filter((s) => s.method === 'GET')).toHaveLength(Math.ceil(total / 2));
  });

  it('a refused call throws an ApiError with the contract error body', async () => {
    const failure = await ok(
      client(loopbackFetch).POST('/private/catalog/tag', { body: { Name: '' } }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    if (!(failure instanceof ApiError)) return;
    expect(failure.status).toBe(400);
    expect(failure.code).toBe('ValidationFailed');
    expect(failure.body?.Errors?.[0]?.Field).toBe('Name');
    expect(failure.requestId).toBe(failure.response.headers.get('X-Request-Id'));
    expect(failure.message).toContain('ValidationFailed');
  });
});

function present<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('missing');
  return value;
}
