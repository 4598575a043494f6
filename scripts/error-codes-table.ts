// `npm run docs:error-codes`: docs/api.md's "Error codes" table, made from the lists where the
// codes are owned: src/http/error-codes.ts (every route's) and each module's `<module>-errors.ts`
// (its `…ErrorCodes`). The table sits between two markers of docs/api.md; everything else in the
// file is left as it is. test/http/error-codes.test.ts checks the committed table is this one.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import type { ErrorCodes } from '../src/domain/error-code-list.ts';
import { httpErrorCodes } from '../src/http/error-codes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const API_DOCS = path.join(ROOT, 'docs/api.md');
const START = '<!-- error-codes:start (npm run docs:error-codes writes this table) -->';
const END = '<!-- error-codes:end -->';

/** Each owner's list: `http` first, then the modules in name order. */
export async function ownedErrorCodes(): Promise<Map<string, ErrorCodes>> {
  const owned = new Map<string, ErrorCodes>([['http', httpErrorCodes]]);
  const modules = path.join(ROOT, 'src/modules');
  for (const name of (await readdir(modules)).sort()) {
    const file = path.join(modules, name, `${name}-errors.ts`);
    const exports = (await import(pathToFileURL(file).href).catch(() => ({}))) as Record<
      string,
      unknown
    >;
    const list = exports[`${name}ErrorCodes`];
    if (list) owned.set(name, list as ErrorCodes);
  }
  return owned;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The table: a row per code and owner, by code. */
export function errorCodesTable(owned: Map<string, ErrorCodes>): string {
  const rows = [...owned].flatMap(([owner, list]) =>
    Object.entries(list).map(([code, { status, meaning }]) => ({ code, status, meaning, owner })),
  );
  rows.sort((a, b) => a.code.localeCompare(b.code) || a.owner.localeCompare(b.owner));
  return [
    '| Code | Status | Where | When |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| \`${row.code}\` | ${[row.status].flat().join(', ')} | ${row.owner === 'http' ? 'any route' : row.owner} | ${cell(row.meaning)} |`,
    ),
  ].join('\n');
}

/** docs/api.md with the table between its markers made anew, formatted as Prettier does. */
export async function withTable(docs: string): Promise<string> {
  const start = docs.indexOf(START);
  const end = docs.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api.md has no ${START} … ${END} markers`);
  const table = errorCodesTable(await ownedErrorCodes());
  const written = `${docs.slice(0, start + START.length)}\n\n${table}\n\n${docs.slice(end)}`;
  const options = await prettier.resolveConfig(API_DOCS);
  return prettier.format(written, { ...options, filepath: API_DOCS });
}

if (import.meta.main) {
  await writeFile(API_DOCS, await withTable(await readFile(API_DOCS, 'utf8')));
  console.log('docs/api.md: the "Error codes" table written');
}
