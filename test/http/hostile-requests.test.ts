// The low findings of the second security review (issue 46): paging parameters in decimal
// digits only, within their maximum; a request with two Host headers; /metrics only for the
// client addresses the operator allows (METRICS_ALLOWED_ADDRESSES, loopback by default).
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../support/test-api.ts';
import { expectError, expectStatus } from '../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let port: number;

beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

describe('GET /private/catalog/brands (paging parameters)', () => {
  it.each(['skip=0x10', 'skip=%20', 'take=1e3', 'skip=2^53', 'skip=9007199254740993', 'take=+5'])(
    '%s is 400',
    async (query) => {
      const response = await api.call({ url: `/private/catalog/brands?${query}`, tenant: acme });
      expectError(response, 400, 'ValidationFailed', query.split('=')[0]);
    },
  );

  it('takes decimal digits', async () => {
    expectStatus(
      await api.call({ url: '/private/catalog/brands?skip=0&take=5', tenant: acme }),
      200,
    );
  });
});

describe('any route (two Host headers)', () => {
  it('answers 400 DuplicateHost to a request with two Host headers', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `GET /health/live HTTP/1.1\r\nHost: ${acme.host}\r\nHost: other.localhost\r\nConnection: close\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await once(socket, 'end');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"Code":"DuplicateHost"');
  });
});

describe('GET /metrics (allowed addresses)', () => {
  it('answers a loopback client and 404 to any other by default', async () => {
    const local = await api.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expectStatus(local, 200);
    const outside = await api.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
    expectError(outside, 404, 'RouteNotFound');
  });
});
