// Every error code the server can answer is listed once where it is owned, with its status, and
// documented: in docs/api.md's "Error codes" table and in the OpenAPI document's ErrorBody.Code.
// The codes the server answers are read from its source (test/support/error-code-scan.ts), so a
// new code a route throws fails here until it is listed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS, ownedErrorCodes, withTable } from '../../scripts/error-codes-table.ts';
import type { ErrorCode, ErrorCodes } from '../../src/domain/error-code-list.ts';
import { scanErrorCodes, type FoundCode } from '../support/error-code-scan.ts';
import { useTestApi } from '../support/test-api.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const api = useTestApi();

let owned: Map<string, ErrorCodes>;
let found: FoundCode[];
beforeAll(async () => {
  owned = await ownedErrorCodes();
  found = scanErrorCodes(ROOT).found;
});

/** The list entry a code written in `owner`'s files answers to: its own list's, else the shared one. */
const entryOf = (owner: string, code: string): ErrorCode | undefined =>
  owned.get(owner)?.[code] ?? owned.get('http')?.[code];

describe('the error code lists', () => {
  it('have every module that answers a code of its own', () => {
    expect(found.length).toBeGreaterThan(100);
    const owners = new Set(found.map((f) => f.owner));
    for (const owner of owners)
      if (found.some((f) => f.owner === owner && entryOf('http', f.code) === undefined))
        expect(owned.has(owner), `src/modules/${owner}/${owner}-errors.ts lists no codes`).toBe(
          true,
        );
  });

  it('list every code the source answers, with the status the source answers it with', () => {
    const unlisted = found.filter((f) => entryOf(f.owner, f.code) === undefined);
    expect(
      unlisted.map((f) => `${f.code} (${f.at})`),
      'codes answered but listed nowhere',
    ).toEqual([]);
    const wrongStatus = found.filter(
      (f) =>
        f.status !== undefined && ![entryOf(f.owner, f.code)!.status].flat().includes(f.status),
    );
    expect(
      wrongStatus.map((f) => `${f.code} ${f.status} (${f.at})`),
      'codes answered with another status than their list says',
    ).toEqual([]);
  });

  it('list no code the source never answers', () => {
    const stale = [...owned].flatMap(([owner, list]) =>
      Object.keys(list)
        .filter(
          (code) => !found.some((f) => f.code === code && (owner === 'http' || f.owner === owner)),
        )
        .map((code) => `${owner}: ${code}`),
    );
    expect(stale, 'listed codes that nothing answers').toEqual([]);
  });

  it('give a module no code the shared list has already (one owner a code)', () => {
    const shared = new Set(Object.keys(owned.get('http') ?? {}));
    const twice = [...owned]
      .filter(([owner]) => owner !== 'http')
      .flatMap(([owner, list]) =>
        Object.keys(list)
          .filter((code) => shared.has(code))
          .map((code) => `${owner}: ${code}`),
      );
    expect(twice).toEqual([]);
  });
});

describe('docs/api.md "Error codes"', () => {
  it('is the table the lists make (npm run docs:error-codes)', async () => {
    const committed = await readFile(API_DOCS, 'utf8');
    const current = await withTable(committed);
    expect(committed === current, 'docs/api.md is stale: run `npm run docs:error-codes`').toBe(
      true,
    );
    for (const code of new Set(found.map((f) => f.code)))
      expect(committed, `docs/api.md has no row for ${code}`).toContain(`| \`${code}\` `);
  });
});

describe('GET /openapi.json ErrorBody.Code', () => {
  it('lists every code under each of its statuses', async () => {
    const response = await api.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } });
    const document = response.json<{
      components: { schemas: { ErrorBody: { properties: { Code: { description: string } } } } };
    }>();
    const lines = document.components.schemas.ErrorBody.properties.Code.description.split('\n');
    const codesOf = (status: number) =>
      (lines.find((line) => line.startsWith(`${status}: `)) ?? '').slice(5).split(', ');
    for (const list of owned.values())
      for (const [code, { status }] of Object.entries(list))
        for (const one of [status].flat())
          expect(codesOf(one), `${code} is not listed under ${one}`).toContain(code);
  });
});
