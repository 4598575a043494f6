// Vitest global setup: with OPENAPI_COVERAGE_FILE set, the file starts empty, every test worker
// appends the (operation, status) pairs of the documents it checked answers against and those it
// saw (openapi-answers.ts), and the run ends by counting what it saw of the server's document.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The pairs seen that the largest document lists (the server's: the tests' own small servers
 * have documents of a few operations), as operations and as (operation, status) pairs.
 */
export function coverageSummary(text: string): string {
  let documented: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as { documented?: string[]; seen?: string };
    if (entry.documented && entry.documented.length > documented.length)
      documented = entry.documented;
    if (entry.seen) seen.add(entry.seen);
  }
  const operationOf = (pair: string) => pair.slice(0, pair.lastIndexOf(' '));
  const pairs = documented.filter((pair) => seen.has(pair));
  const operations = new Set(documented.map(operationOf));
  const operationsSeen = new Set(pairs.map(operationOf));
  return (
    `OpenAPI answers checked: ${operationsSeen.size} of ${operations.size} operations, ` +
    `${pairs.length} of ${documented.length} documented (operation, status) pairs`
  );
}

export default function setup(): (() => void) | undefined {
  const file = process.env.OPENAPI_COVERAGE_FILE;
  if (!file) return undefined;
  writeFileSync(file, '');
  return () => {
    console.log(coverageSummary(readFileSync(file, 'utf8')));
  };
}
