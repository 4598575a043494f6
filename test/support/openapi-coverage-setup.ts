// Vitest global setup: with OPENAPI_COVERAGE_FILE set, the file starts empty, every test worker
// appends the (operation, status) pairs its answers were checked against (openapi-answers.ts),
// and the run ends by counting them against what the document lists.
import { readFileSync, writeFileSync } from 'node:fs';

interface CoverageLine {
  operation?: string;
  status?: string;
  documented?: { operations: number; statuses: number };
}

export function coverageSummary(text: string): string {
  const operations = new Set<string>();
  const pairs = new Set<string>();
  let documented = { operations: 0, statuses: 0 };
  for (const line of text.split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as CoverageLine;
    if (entry.documented && entry.documented.operations > documented.operations)
      documented = entry.documented;
    if (entry.operation && entry.status) {
      operations.add(entry.operation);
      pairs.add(`${entry.operation} ${entry.status}`);
    }
  }
  return (
    `OpenAPI answers checked: ${operations.size} of ${documented.operations} operations, ` +
    `${pairs.size} of ${documented.statuses} documented (operation, status) pairs`
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
