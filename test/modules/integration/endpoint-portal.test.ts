// The integration endpoint's portal host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../../support/test-api.ts';
import { viaPortal } from './integration-fixtures.ts';
import { useEndpointApi, api, liveEndpoint, deleteEndpoint } from './endpoint-fixtures.ts';

useEndpointApi();

describe('the portal', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    tenant = await api.createTenant('portal-co');
    key = await liveEndpoint(tenant, 'Portal-Svc', 1);
  });
  afterAll(() => deleteEndpoint(tenant));

  it('serves an HTML page with the service, tier, status, the API reference and how to call', async () => {
    const response = await viaPortal(api, 'Portal-Svc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<h1>Portal-Svc</h1>');
    expect(html).toContain('Standard tier');
    expect(html).toContain('5 requests per second');
    expect(html).toMatch(/id="status"[^>]*>Live</);
    expect(html).toContain('id="key">active<');
    // How to call: the gateway URL, the header, the tenant's token URL.
    expect(html).toContain('http://portal-svc.integration.localhost:8080');
    expect(html).toContain('X-Subscription-Key');
    expect(html).toContain('http://portal-co.localhost:8080/oauth/token');
    // The API reference, from the OpenAPI document.
    const openapi = await api.call({ url: '/openapi.json' });
    const paths = Object.keys(openapi.json<{ paths: Record<string, unknown> }>().paths);
    for (const path of paths.filter((p) => /^\/(management|private)\//.test(p)).slice(0, 20)) {
      expect(html).toContain(`<code>${path}</code>`);
    }
    expect(html).toMatch(
      /<td class="method">DELETE<\/td><td><code>\/management\/integration\/endpoint<\/code>/,
    );
    expect(html).toContain('<code>/management/oauth/apps</code>');
    // No secret on a public page.
    expect(html).not.toContain(key);
  });

  it('answers the live status as JSON for the page to poll', async () => {
    const response = await viaPortal(api, 'portal-svc', '/status');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      ServiceName: 'Portal-Svc',
      Status: 2,
      ServiceTier: 1,
      SubscriptionKeyActive: true,
    });
  });

  it('answers 404 for a portal host without an endpoint', async () => {
    const response = await viaPortal(api, 'no-such-svc');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
