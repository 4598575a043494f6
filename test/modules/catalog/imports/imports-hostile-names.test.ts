// POST /private/catalog/imports with names that are JavaScript's own (issue 46): a RecordType or
// a CSV column named after anything on Object.prototype ("constructor", "toString",
// "__proto__" …) is an unknown type or column, failing as any other does, never a lookup into
// the language's objects; and a record with thousands of mistakes lists at most 100 of them in
// its result, counting the rest.
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '../../../../src/domain/bounded-validation.ts';
import { expectStatus } from '../../../support/expectations.ts';
import { CATALOG } from '../catalog-fixtures.ts';
import { CSV, JSONL, importResults, jsonl, runImport, useImportApi } from './imports-fixtures.ts';

const api = useImportApi();
let counter = 0;
const newTenant = () => api.createTenant(`hostile-${++counter}-${Date.now() % 100000}`);

/** Every name Object.prototype has, __proto__ included (not enumerable, so listed by hand). */
const PROTOTYPE_NAMES = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']),
];
const UNKNOWN_TYPE = {
  Field: 'RecordType',
  Message: 'must be one of Item, Category, Brand, Tag, PriceType, AttributeType',
};

describe('POST /private/catalog/imports (names of Object.prototype)', () => {
  it(`fails each record whose RecordType is one of the ${PROTOTYPE_NAMES.length} names of Object.prototype`, async () => {
    expect(PROTOTYPE_NAMES).toEqual(
      expect.arrayContaining(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']),
    );
    const tenant = await newTenant();
    const records = PROTOTYPE_NAMES.map((name) => ({ RecordType: name, Title: `as ${name}` }));
    const job = await runImport(api, tenant, jsonl(records), JSONL, 'errorPolicy=SkipFailedRows');
    expect(job).toMatchObject({
      State: 'Succeeded',
      RowsWritten: 0,
      RowsFailed: PROTOTYPE_NAMES.length,
    });
    const results = await importResults(api, tenant, job.Id);
    expect(results).toHaveLength(PROTOTYPE_NAMES.length);
    for (const result of results) {
      expect(result.Status).toBe('Failed');
      expect(result.Errors).toEqual([UNKNOWN_TYPE]);
    }
    const items = await api.call({ url: `${CATALOG}/items`, tenant });
    expectStatus(items, 200);
    expect(items.json<{ Results: unknown[] }>().Results).toEqual([]);
  });

  it('fails a record with a "__proto__" key as an unknown field, its value no prototype', async () => {
    const tenant = await newTenant();
    const line = '{"__proto__":{"Title":"from the prototype"}}\n';
    const job = await runImport(api, tenant, line, JSONL, 'errorPolicy=SkipFailedRows');
    expect(job).toMatchObject({ RowsWritten: 0, RowsFailed: 1 });
    const [result] = await importResults(api, tenant, job.Id);
    expect(result!.Errors!.map((e) => e.Field)).toContain('__proto__');
  });

  it.each(PROTOTYPE_NAMES)('fails a CSV file with a column named %s as unknown', async (name) => {
    const tenant = await newTenant();
    const cell = name === '__proto__' ? '"{""Title"":""from the prototype""}"' : 'x';
    const job = await runImport(api, tenant, `Title,${name}\nA,${cell}\n`, CSV);
    expect(job.State).toBe('Failed');
    expect(job.Error).toMatch(new RegExp(`^line 1: unknown column "${name}"`));
    const items = await api.call({ url: `${CATALOG}/items`, tenant });
    expect(items.json<{ Results: unknown[] }>().Results).toEqual([]);
  });
});

describe('POST /private/catalog/imports (errors per record bounded)', () => {
  it('lists at most 100 errors of a record and counts the rest in ErrorsOmitted', async () => {
    const tenant = await newTenant();
    const record = { Title: 'x', Tags: Array.from({ length: 300 }, () => 1) };
    const job = await runImport(api, tenant, jsonl([record]), JSONL, 'errorPolicy=SkipFailedRows');
    expect(job).toMatchObject({ RowsWritten: 0, RowsFailed: 1 });
    const [result] = await importResults(api, tenant, job.Id);
    expect(result!.Errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(result!.ErrorsOmitted).toBeGreaterThanOrEqual(300 - MAX_LISTED_ERRORS);
  });
});
