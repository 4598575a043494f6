// Access tokens as RFC 9068 JWTs: every claim §2.2 requires, for app tokens (client credentials),
// identity tokens and members' tokens (authorization code), checked by a resource server library
// that nobody here wrote (oauth4webapi's validateJwtAccessToken) against the server's metadata
// and JWKS.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { createPhysicalDevice, identityToken } from '../company/company-fixtures.ts';
import { createMember, signIn } from '../members/members-fixtures.ts';
import { createApp, handMadeAccessToken, injectFetch } from './oauth-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

const ACME = 'http://acme.localhost:8080';
const GLOBEX = 'http://globex.localhost:8080';
const REQUIRED_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'];

let options: {
  [oauth.customFetch]: ReturnType<typeof injectFetch>;
  [oauth.allowInsecureRequests]: true;
};
let acmeServer: oauth.AuthorizationServer;

beforeAll(async () => {
  options = { [oauth.customFetch]: injectFetch(api), [oauth.allowInsecureRequests]: true };
  acmeServer = await discover(ACME);
});

async function discover(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
  );
}

/** What a resource server on the tenant's host would do with the bearer token it received. */
function validate(token: string, as = acmeServer, audience = ACME) {
  const request = new Request(`${audience}/management/oauth/apps`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return oauth.validateJwtAccessToken(as, request, audience, options);
}

describe('an app access token (client credentials)', () => {
  it('carries every claim RFC 9068 §2.2 requires, client_id and sub naming the app', async () => {
    const app = await createApp(api, acme, 2);
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    const claims = decodeJwt(token);
    for (const claim of REQUIRED_CLAIMS) expect(claims, claim).toHaveProperty(claim);
    expect(claims).toMatchObject({
      iss: ACME,
      aud: ACME,
      sub: app.ApplicationId,
      client_id: app.ApplicationId,
      scope: 'public private',
    });
  });

  it("is accepted by oauth4webapi's validateJwtAccessToken", async () => {
    const app = await createApp(api, acme, 3);
    const token = await api.issueToken(acme, app.ApplicationId, app.ApplicationSecret);
    const claims = await validate(token);
    expect(claims.client_id).toBe(app.ApplicationId);
    expect(claims.sub).toBe(app.ApplicationId);
  });

  it("is refused by the same check on another tenant, which accepts that tenant's own", async () => {
    const globexServer = await discover(GLOBEX);
    expect((await validate(globex.token, globexServer, GLOBEX)).sub).toBe(globex.appId);
    const failure = await validate(acme.token, globexServer, GLOBEX).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(oauth.OperationProcessingError);
  });

  it('is still accepted by the API when issued before the claim was added (no client_id)', async () => {
    // Tokens live up to TOKEN_TTL_SECONDS: those in flight when the server is updated keep working.
    const app = await createApp(api, acme, 3);
    const earlier = await handMadeAccessToken(api, {
      issuer: ACME,
      subject: app.ApplicationId,
      claims: { scope: 'public private management' },
    });
    const response = await api.call({
      url: '/management/oauth/apps',
      tenant: acme,
      token: earlier,
    });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('an identity token (client credentials with physical_device_id)', () => {
  it('carries client_id and dev, and passes validateJwtAccessToken', async () => {
    const app = await createApp(api, acme, 4);
    const device = await createPhysicalDevice(api, acme, null);
    const token = await identityToken(
      api,
      acme,
      { id: app.ApplicationId, secret: app.ApplicationSecret },
      device.DeviceId,
    );
    const claims = await validate(token);
    expect(claims).toMatchObject({ client_id: app.ApplicationId, dev: device.DeviceId });
  });
});

describe("a member's access token (authorization code with PKCE)", () => {
  it('carries every claim RFC 9068 §2.2 requires: client_id console, sub the member', async () => {
    const member = await createMember(api, acme, 'rfc9068', ['analyst']);
    const session = await signIn(api, acme, 'rfc9068');
    expect(decodeProtectedHeader(session.access_token).typ).toBe('at+jwt');
    const claims = await validate(session.access_token);
    for (const claim of REQUIRED_CLAIMS) expect(claims, claim).toHaveProperty(claim);
    expect(claims).toMatchObject({ iss: ACME, aud: ACME, sub: member.Id, client_id: 'console' });
  });
});
