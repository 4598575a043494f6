// The token, revocation and introspection endpoints read forms of a few KiB and nothing else
// (issue 52): they take no credentials before the body, and a MiB of JSON was parsed (a MiB of
// nested arrays at 7–10 times the CPU of a flat one) before the route refused it. Any other
// content type is 415 and a larger body 413, both in the RFC 6749 body and before a byte of the
// body is read.
import { connect, type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORM_BODY_LIMIT_BYTES } from '../../../src/modules/oauth/token-schemas.ts';
import { basicAuth, useTenant, useTestApi } from '../../support/test-api.ts';
import { oauthError, oauthRequest } from './oauth-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let port: number;

beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const MIB = 1 << 20;

/**
 * Sends the request line and headers only, announcing a body that never comes, and answers the
 * status line the server sends (undefined when it waits for the body for `waitMs`).
 */
async function statusWithoutBody(headers: string, waitMs = 5000): Promise<string | undefined> {
  const socket = connect(port, '127.0.0.1');
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      let answer = '';
      const timer = setTimeout(() => resolve(undefined), waitMs);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        const end = answer.indexOf('\r\n');
        if (end !== -1) {
          clearTimeout(timer);
          resolve(answer.slice(0, end));
        }
      });
      socket.write(headers);
    });
  } finally {
    socket.destroy();
  }
}

describe.each(['/oauth/token', '/oauth/revoke', '/oauth/introspect'])('POST %s', (url) => {
  const authorization = () => basicAuth(acme.appId, acme.secret);

  it('answers 415 invalid_request to JSON, small or a MiB of nested arrays', async () => {
    for (const body of [
      JSON.stringify({ grant_type: 'client_credentials', token: acme.token }),
      '['.repeat(MIB / 2) + ']'.repeat(MIB / 2),
      '',
    ])
      oauthError(
        await oauthRequest(api, acme, {
          url,
          body,
          contentType: 'application/json',
          authorization: authorization(),
        }),
        415,
        'invalid_request',
      );
  });

  it('answers 415 invalid_request to any other type that is not a form', async () => {
    for (const contentType of [
      'text/plain',
      'application/json; charset=utf-8',
      'multipart/form-data; boundary=x',
    ])
      oauthError(
        await oauthRequest(api, acme, {
          url,
          body: 'grant_type=client_credentials',
          contentType,
          authorization: authorization(),
        }),
        415,
        'invalid_request',
      );
  });

  it(`answers 413 invalid_request to a form over ${FORM_BODY_LIMIT_BYTES} bytes, and reads one up to it`, async () => {
    const form = (bytes: number) => {
      const start = 'grant_type=client_credentials&token=x&padding=';
      return start + 'x'.repeat(bytes - start.length);
    };
    oauthError(
      await oauthRequest(api, acme, {
        url,
        body: form(FORM_BODY_LIMIT_BYTES + 1),
        authorization: authorization(),
      }),
      413,
      'invalid_request',
    );
    const within = await oauthRequest(api, acme, {
      url,
      body: form(FORM_BODY_LIMIT_BYTES),
      authorization: authorization(),
    });
    // Read and answered by the endpoint (the token endpoint refuses the unknown fields).
    expect(within.statusCode, within.body).not.toBe(413);
    expect(within.statusCode, within.body).toBeLessThan(500);
  });

  it('refuses JSON and a form over the limit before reading the body', async () => {
    const head = (type: string, length: number) =>
      `POST ${url} HTTP/1.1\r\nHost: ${acme.host}\r\nContent-Type: ${type}\r\n` +
      `Content-Length: ${length}\r\n\r\n`;
    expect(await statusWithoutBody(head('application/json', MIB))).toMatch(/^HTTP\/1\.1 415 /);
    expect(
      await statusWithoutBody(head('application/x-www-form-urlencoded', FORM_BODY_LIMIT_BYTES + 1)),
    ).toMatch(/^HTTP\/1\.1 413 /);
  });
});
