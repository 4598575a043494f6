// The client's README shows code that compiles: every ```ts block of clients/typescript/README.md
// is in clients/typescript/examples/readme.ts word for word, which `npm run typecheck` compiles.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT = path.join(import.meta.dirname, '../../clients/typescript');

describe('the client README', () => {
  it('shows only code that the type-checked examples hold', async () => {
    const readme = await readFile(path.join(CLIENT, 'README.md'), 'utf8');
    const examples = await readFile(path.join(CLIENT, 'examples/readme.ts'), 'utf8');
    const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(blocks.filter((block) => !examples.includes(block))).toEqual([]);
  });
});
