// A real OAuth client (oauth4webapi) against the token endpoint over HTTP (contract §3).
import net from 'node:net';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../support/http-call.ts';
import { startTestApi, type TestApi } from '../../support/test-api.ts';

describe('a real OAuth client (oauth4webapi) over HTTP', () => {
  let server: TestApi;
  let port: number;

  /**
   * fetch for *.localhost hosts, which do not resolve here: connects to 127.0.0.1 and sends the
   * Host header (httpCall, which checks each answer against the server's OpenAPI document).
   */
  const loopbackFetch = async (
    url: string,
    init: {
      method: string;
      headers: Record<string, string>;
      body?: string | URLSearchParams | null;
    },
  ): Promise<Response> => {
    const target = new URL(url);
    const answer = await httpCall(Number(target.port), {
      method: init.method,
      path: `${target.pathname}${target.search}`,
      host: target.host,
      headers: init.headers,
      ...(init.body === undefined || init.body === null ? {} : { body: String(init.body) }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, v);
    }
    const { status } = answer;
    return new Response(status === 204 || status === 304 ? null : answer.body, {
      status,
      headers,
    });
  };

  beforeAll(async () => {
    port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    server = await startTestApi({ PUBLIC_PORT: String(port) });
    await server.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  it('discovers the server, gets a token with client_secret_basic and calls the API with it', async () => {
    const tenant = await server.createTenant('acme');
    const issuer = new URL(`http://acme.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };

    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    expect(as.issuer).toBe(issuer.href.replace(/\/$/, ''));
    expect(as.token_endpoint).toBe(`${issuer.origin}/oauth/token`);

    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(tenant.secret),
      new URLSearchParams(),
      options,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBe(3600);
    expect(result.scope).toBe('public private management');
    expect(decodeJwt(result.access_token).iss).toBe(issuer.origin);

    const apps = await loopbackFetch(`${issuer.origin}/management/oauth/apps`, {
      method: 'GET',
      headers: { authorization: `Bearer ${result.access_token}`, accept: 'application/json' },
    });
    expect(apps.status).toBe(200);
    const list = (await apps.json()) as {
      Results: { ApplicationId: string }[];
      TotalCount: number;
    };
    expect(list.Results.map((a) => a.ApplicationId)).toContain(tenant.appId);

    // The same client revokes its token (RFC 7009); the API refuses it from then on.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        as,
        client,
        oauth.ClientSecretBasic(tenant.secret),
        result.access_token,
        options,
      ),
    );
    const refused = await loopbackFetch(`${issuer.origin}/management/oauth/apps`, {
      method: 'GET',
      headers: { authorization: `Bearer ${result.access_token}`, accept: 'application/json' },
    });
    expect(refused.status).toBe(401);
  });

  it('gets a token with client_secret_post and a narrower scope', async () => {
    const tenant = await server.createTenant('globex');
    const issuer = new URL(`http://globex.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(tenant.secret),
      new URLSearchParams({ scope: 'public private' }),
      options,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result.scope).toBe('public private');
  });

  it('surfaces invalid_client to the client library for a wrong secret', async () => {
    const tenant = await server.createTenant('initech');
    const issuer = new URL(`http://initech.localhost:${port}`);
    const options = { [oauth.customFetch]: loopbackFetch, [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const client: oauth.Client = { client_id: tenant.appId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic('wrong'),
      new URLSearchParams(),
      options,
    );
    // A 401 with a WWW-Authenticate Basic challenge: the library reports the challenge.
    const failure = await oauth.processClientCredentialsResponse(as, client, response).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = failure as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause.map((c) => c.scheme)).toEqual(['basic']);
    expect(((await challenge.response.json()) as { error: string }).error).toBe('invalid_client');
  });
});
