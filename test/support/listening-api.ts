// An API that listens on a loopback port, for clients that speak real HTTP (browsers, the
// generated TypeScript client): PORT is the port it listens on, so that the tenants' base URLs,
// the sign-in redirects and the asset URLs name it.
import { createServer } from 'node:net';
import type { ServiceOverrides } from '../../src/module-wiring.ts';
import { startTestApi, type TestApi } from './test-api.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** An API listening on 127.0.0.1, with PORT (hence the tenants' base URLs) set to its port. */
export async function startListeningApi(
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): Promise<{ api: TestApi; port: number }> {
  const port = await freePort();
  const api = await startTestApi({ PORT: String(port), ...env }, overrides);
  await api.app.listen({ port, host: '127.0.0.1' });
  return { api, port };
}
