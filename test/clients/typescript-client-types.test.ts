// The client's committed types (clients/typescript/src/generated/openapi.ts) are what
// openapi-typescript makes of the committed OpenAPI document (openapi.json, which
// test/http/openapi-document.test.ts holds to the server's): a route or schema changed without
// `npm run client:generate` fails here.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_TYPES_FILE,
  committedDocument,
  generatedTypes,
} from '../../clients/typescript/scripts/generate.ts';

/** The first lines where the two texts part, with a few lines of context. */
function firstDifference(committed: string, expected: string): string | undefined {
  const a = committed.split('\n');
  const b = expected.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const index = at === -1 ? (a.length === b.length ? -1 : a.length) : at;
  if (index === -1) return undefined;
  const from = Math.max(0, index - 3);
  return [
    `line ${index + 1}:`,
    ...a.slice(from, index + 4).map((line) => `- ${line}`),
    ...b.slice(from, index + 4).map((line) => `+ ${line}`),
  ].join('\n');
}

describe('the generated client types', () => {
  // Formats some 20,000 lines: longer than a request test.
  it('match the committed OpenAPI document', { timeout: 120_000 }, async () => {
    const committed = await readFile(GENERATED_TYPES_FILE, 'utf8');
    const expected = await generatedTypes(await committedDocument());
    expect(
      firstDifference(committed, expected),
      'clients/typescript/src/generated/openapi.ts is stale: run `npm run client:generate`',
    ).toBeUndefined();
  });
});
