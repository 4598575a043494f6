// The Postman collection's newman run again, through Prism's validating proxy (test/support/
// prism.ts): every request and every answer checked by a validator nobody here wrote against
// openapi.json, with no violation. (The generated TypeScript client's walk goes through Prism too,
// in typescript-client.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/listening-api.ts';
import { committedCollection, runCollection } from '../support/newman-run.ts';
import { startPrism, type Prism } from '../support/prism.ts';
import { seededServer, type SeededServer } from '../support/seeded-server.ts';

let seeded: SeededServer;
let prism: Prism;
beforeAll(async () => {
  // Both start at once: Prism needs only the server's port, chosen beforehand.
  const port = await freePort();
  [seeded, prism] = await Promise.all([seededServer(port), startPrism(port)]);
}, 120_000);
afterAll(async () => {
  await prism?.stop();
  await seeded?.stop();
});

interface Item {
  request?: { method: string; url: { host: string[] } };
  item?: Item[];
}

/** The collection with its HEAD requests sent to the server directly (Prism answers HEAD 500). */
function headersDirect(items: Item[]): void {
  for (const item of items) {
    if (item.item) headersDirect(item.item);
    else if (item.request?.method === 'HEAD') item.request.url.host = ['{{directBaseUrl}}'];
  }
}

describe('the Postman collection through prism proxy --errors', () => {
  it('runs as its examples expect, with no violation', async () => {
    const collection = await committedCollection();
    headersDirect(collection.item as Item[]);
    const sent = await runCollection(
      {
        ...seeded.variables,
        baseUrl: `http://127.0.0.1:${prism.port}`,
        directBaseUrl: seeded.variables.baseUrl!,
      },
      collection,
    );
    for (const request of sent)
      prism.record(
        `${request.method} ${request.url}`,
        request.status ?? 0,
        request.headers,
        request.body,
      );
    const failed = sent.filter((request) => request.failures.length > 0);
    console.log(
      `newman through Prism: ${sent.length - failed.length}/${sent.length} requests passed, ${prism.violations.length} violations`,
    );
    expect(prism.violations).toEqual([]);
    expect(
      failed.map((r) => `${r.method} ${r.url} → ${r.status}: ${r.failures.join('; ')}`),
    ).toEqual([]);
  }, 120_000);
});
