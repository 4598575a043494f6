import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: 'localhost' } });

describe('GET /health/live', () => {
  it('answers 200 while the process is up', async () => {
    const response = await get('/health/live');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ Status: 'ok' });
  });
});

describe('GET /health/ready', () => {
  it('answers 200 with the database engine when the database is migrated', async () => {
    const response = await get('/health/ready');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ Status: 'ready', Database: api.database.handle.engine });
  });
});

describe('GET /metrics', () => {
  it('is Prometheus text counting requests by route pattern, not raw URL', async () => {
    const read = await api.call({ url: `/management/oauth/apps/${acme.appId}`, tenant: acme });
    expect(read.statusCode).toBe(200);
    const missing = await api.call({
      url: '/management/oauth/apps/not-a-uuid/at/all',
      tenant: acme,
    });
    expect(missing.statusCode).toBe(404);

    const response = await get('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/management\/oauth\/apps\/:applicationId",status="200"\} [1-9]\d*$/m,
    );
    expect(text).toMatch(/^http_requests_total\{[^}]*route="unmatched"[^}]*status="404"\} /m);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).not.toContain(acme.appId);
    expect(text).not.toContain('not-a-uuid');
  });

  it('counts each answered request once, as many as the latency histogram observed', async () => {
    const series = 'method="GET",route="/private/catalog/items",status="200"';
    const countOf = (text: string, name: string) =>
      Number(
        new RegExp(`^${name}\\{${series.replace(/[/.]/g, '\\$&')}\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    const before = (await get('/metrics')).body;
    for (let i = 0; i < 3; i++)
      expect((await api.call({ url: '/private/catalog/items', tenant: acme })).statusCode).toBe(
        200,
      );
    const after = (await get('/metrics')).body;
    expect(countOf(after, 'http_requests_total') - countOf(before, 'http_requests_total')).toBe(3);
    expect(countOf(after, 'http_requests_total')).toBe(
      countOf(after, 'http_request_duration_seconds_count'),
    );
  });

  it('answers two scrapes at once with the same count, not twice it', async () => {
    const series =
      /^http_requests_total\{method="GET",route="\/health\/live",status="200"\} (\d+)$/m;
    const countOf = (text: string) => Number(series.exec(text)?.[1] ?? 0);
    expect((await get('/health/live')).statusCode).toBe(200);
    const expected = countOf((await get('/metrics')).body);
    expect(expected).toBeGreaterThan(0);
    const [a, b] = await Promise.all([get('/metrics'), get('/metrics')]);
    expect([countOf(a.body), countOf(b.body)]).toEqual([expected, expected]);
  });
});

describe('GET /docs', () => {
  it('renders the API reference as HTML', async () => {
    let response = await get('/docs');
    for (
      let hops = 0;
      hops < 3 && response.statusCode >= 300 && response.statusCode < 400;
      hops++
    ) {
      response = await get(
        new URL(String(response.headers.location), 'http://localhost/docs').pathname,
      );
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toMatch(/<html/i);
  });
});

describe('GET /openapi.json', () => {
  let document: Record<string, unknown>;

  beforeAll(async () => {
    const response = await get('/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents the apps and token operations', () => {
    const paths = document.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/management/oauth/apps', '/oauth/token']),
    );
    expect(Object.keys(paths['/management/oauth/apps']!)).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(paths['/oauth/token']).toHaveProperty('post');
  });

  it('defines the contract error body and refers to it from error responses', () => {
    const schemas = (document.components as { schemas: Record<string, { properties?: object }> })
      .schemas;
    expect(schemas.ErrorBody).toBeDefined();
    expect(Object.keys(schemas.ErrorBody!.properties ?? {})).toEqual(
      expect.arrayContaining(['IdentifierGuid', 'IdentifierTick', 'FriendlyDescription', 'Code']),
    );
    const listResponses = (
      document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
    )['/management/oauth/apps']!.get!.responses;
    expect(JSON.stringify(listResponses['406'])).toContain('#/components/schemas/ErrorBody');
    expect(JSON.stringify(listResponses['401'])).toContain('#/components/schemas/ErrorBody');
  });

  it('leaves the operator routes out of the tenant API', () => {
    const paths = Object.keys(document.paths as object);
    expect(paths).not.toContain('/metrics');
    expect(paths).not.toContain('/openapi.json');
  });
});
