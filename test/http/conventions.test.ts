import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant, errorBody } from '../support/test-api.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

describe('error body and request id', () => {
  it('answers an unknown route with 404 and the error body whose IdentifierGuid is the X-Request-Id', async () => {
    const response = await api.call({ url: '/no/such/route', tenant: acme });
    expect(response.statusCode).toBe(404);
    const body = errorBody(response);
    expect(body.Code).toBe('RouteNotFound');
    expect(body.IdentifierGuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.IdentifierTick).toBeGreaterThan(638_000_000_000_000_000);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('writes IdentifierTick as .NET ticks that a JavaScript number holds exactly', async () => {
    const before = BigInt(Date.now()) * 10_000n + 621_355_968_000_000_000n;
    const response = await api.call({ url: '/no/such/route', tenant: acme });
    const after = BigInt(Date.now()) * 10_000n + 621_355_968_000_000_000n;
    const sent = /"IdentifierTick":(\d+)/.exec(response.body)?.[1];
    expect(sent, response.body).toMatch(/^\d{18}$/);
    const ticks = BigInt(sent!);
    // The .NET value of the error's time (rounded to 12.8 µs), beyond 2^53 …
    expect(ticks).toBeGreaterThan(2n ** 53n);
    expect(ticks >= before - 64n && ticks <= after + 64n).toBe(true);
    expect(ticks % 128n).toBe(0n);
    // … and JSON.parse gives exactly that integer (it used to be off by up to 64).
    const parsed = (JSON.parse(response.body) as { IdentifierTick: number }).IdentifierTick;
    expect(BigInt(parsed)).toBe(ticks);
    // The milliseconds survive the rounding: a .NET DateTime of it is the error's time.
    const ms = Number((ticks - 621_355_968_000_000_000n + 5_000n) / 10_000n);
    expect(ms).toBeGreaterThanOrEqual(Number((before - 621_355_968_000_000_000n) / 10_000n));
  });

  it('writes the request id into the log line of that request', async () => {
    const response = await api.call({ url: '/no/such/route', tenant: acme });
    const id = response.headers['x-request-id'] as string;
    const lines = api.logs.lines.filter((l) => l.includes(id));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => (JSON.parse(l) as { requestId: string }).requestId === id)).toBe(
      true,
    );
  });

  it('sets X-Api-Version on every response, errors and operator routes included', async () => {
    for (const response of [
      await api.call({ url: '/health/live' }),
      await api.call({ url: '/management/oauth/apps', tenant: acme }),
      await api.call({ url: '/nowhere', tenant: acme }),
    ]) {
      expect(response.headers['x-api-version']).toBe('4.0');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('rejects malformed JSON with 400 MalformedJson', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: '{"Name": "x",',
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('MalformedJson');
  });

  it('rejects an empty JSON body with 400', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    errorBody(response);
  });

  it('rejects a body that is not JSON with 415', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: 'Name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(415);
    expect(errorBody(response).Code).toBe('UnsupportedMediaType');
  });

  it('rejects a body over the limit with 413', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: JSON.stringify({ Name: 'x', ApplicationTypeId: 1, Description: 'y'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(errorBody(response).Code).toBe('PayloadTooLarge');
  });

  it('rejects unknown body fields with 400 naming the field', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: 'x', ApplicationTypeId: 1, Owner: 'me' },
    });
    expect(response.statusCode).toBe(400);
    const body = errorBody(response);
    expect(body.Code).toBe('ValidationFailed');
    expect(body.Errors).toEqual([{ Field: 'Owner', Message: 'is not a known field' }]);
  });
});

describe('values the database cannot store', () => {
  it('answers a NUL character in a text field with 400 InvalidValue, not 500', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: 'bad\u0000name', ApplicationTypeId: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('InvalidValue');
  });
});

describe('paging', () => {
  it.each([
    ['skip=-1', 'skip'],
    ['take=0', 'take'],
    ['take=1001', 'take'],
    ['take=abc', 'take'],
    ['skip=1.5', 'skip'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const response = await api.call({ url: `/management/oauth/apps?${query}`, tenant: acme });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Errors?.[0]?.Field).toBe(field);
  });

  it('answers an empty page with 200 and Results []', async () => {
    const response = await api.call({
      url: '/management/oauth/apps?skip=500&take=10',
      tenant: acme,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ Results: [], TotalCount: 1 });
  });
});
