// The Postman collection (postman/omnichannel.postman_collection.json, written by `npm run
// postman:generate` from openapi.json) as an integrator runs it: with newman, against a server
// fresh from its first start, given only the demo app's credentials that `npm start` printed.
// Every request answers what its example expects (its test script checks the status), and the
// committed collection is what the script makes of the committed document.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildCollection } from '../../scripts/postman-collection.ts';
import { committedCollection, runCollection } from '../support/newman-run.ts';
import { seededServer, type SeededServer } from '../support/seeded-server.ts';

let seeded: SeededServer;
beforeAll(async () => {
  seeded = await seededServer();
}, 120_000);
afterAll(() => seeded?.stop());

describe('npm run postman:generate', () => {
  it('wrote the committed collection from the committed document', async () => {
    const document = await readFile(new URL('../../openapi.json', import.meta.url), 'utf8');
    const generated = JSON.parse(JSON.stringify(await buildCollection(document))) as unknown;
    expect(await committedCollection()).toEqual(generated);
  });
});

describe('the Postman collection, run by newman', () => {
  it(`answers every request as its example expects (${inject('testDatabase').engine})`, async () => {
    const sent = await runCollection(seeded.variables);
    const failed = sent.filter((request) => request.failures.length > 0);
    const operations = new Set(sent.map((request) => request.name));
    console.log(
      `newman: ${sent.length - failed.length}/${sent.length} requests passed (${operations.size} distinct requests)`,
    );
    expect(
      failed.map((r) => `${r.method} ${r.url} → ${r.status}: ${r.failures.join('; ')} ${r.body}`),
    ).toEqual([]);
    expect(operations.size).toBeGreaterThanOrEqual(189);
  }, 120_000);
});
