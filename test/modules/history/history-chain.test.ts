// Tamper evidence of the change history: sealing into each tenant's hash chain, `omni history
// verify` finding a deleted or an edited entry, and the export (the route, the command, and the
// check of an export file).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTenant, useTestApi, type TestTenant } from '../../support/test-api.ts';
import { expectError } from '../../support/expectations.ts';
import {
  entries,
  HISTORY_ENV,
  makeChanges,
  omniHistory,
  tenantId,
} from './history-chain-fixtures.ts';

const api = useTestApi(HISTORY_ENV);
const acme = useTenant(api, 'acme');
const other = useTenant(api, 'other');
const deleted = useTenant(api, 'deleted');
const edited = useTenant(api, 'edited');
const exported = useTenant(api, 'exported');

// Each tenant starts with one entry, its bootstrap app's: the entry of its first member (the
// owner, made with it) is taken out, so that the counts below read from one.
beforeAll(async () => {
  for (const tenant of [acme, other, deleted, edited, exported])
    await api.database.handle.query(
      "delete from change_history where tenant_id = $1 and resource = 'member'",
      [await tenantId(api, tenant)],
    );
});

const seal = async (tenant: TestTenant) =>
  api.services.history.sealer.sealTenant(await tenantId(api, tenant));
const verify = (tenant: TestTenant) => omniHistory(api, 'verify', { tenant: tenant.name });
const EXPORT = '/management/history/export';
const exportOf = async (tenant: TestTenant, query = '', token?: string) =>
  api.call({ url: `${EXPORT}${query}`, tenant, ...(token ? { token } : {}) });
const linesOf = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('sealing', () => {
  it('gives each committed entry its place and a hash linked to the one before, tenant by tenant', async () => {
    // A new tenant has the entry of its bootstrap app.
    expect((await entries(api, acme)).map((e) => [e.resource, e.seq])).toEqual([['app', null]]);
    await makeChanges(api, acme, 2);
    await makeChanges(api, other, 2);
    expect((await entries(api, acme)).map((e) => e.seq)).toEqual([null, null, null]);
    expect(await seal(acme)).toBe(3);
    const sealed = await entries(api, acme);
    expect(sealed.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(sealed.every((e) => /^[0-9a-f]{64}$/.test(e.hash!))).toBe(true);
    expect(new Set(sealed.map((e) => e.hash)).size).toBe(3);
    // The other tenant's entries wait for its own pass.
    expect((await entries(api, other)).map((e) => e.seq)).toEqual([null, null, null]);
    await makeChanges(api, acme, 1);
    expect(await seal(acme)).toBe(1);
    expect((await entries(api, acme)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    const [chain] = await api.database.handle.query<{ sealed_seq: number; sealed_hash: string }>(
      'select sealed_seq, sealed_hash from change_history_chains where tenant_id = $1',
      [await tenantId(api, acme)],
    );
    expect(chain).toEqual({ sealed_seq: 4, sealed_hash: (await entries(api, acme))[3]!.hash });
  });

  it('seals at most a batch per tenant and pass, and every tenant in a pass over all', async () => {
    await makeChanges(api, other, 2);
    expect(await api.services.history.sealer.sealTenant(await tenantId(api, other), 2)).toBe(2);
    expect((await entries(api, other)).map((e) => e.seq)).toEqual([1, 2, null, null, null]);
    await api.services.history.sealer.sealAll();
    expect((await entries(api, other)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never gives two entries one place when passes run at once', async () => {
    await makeChanges(api, acme, 4);
    await Promise.all([seal(acme), seal(acme), api.services.history.sealer.sealAll()]);
    expect((await entries(api, acme)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('omni history verify --tenant', () => {
  it('exits 0 with the count when the chain is intact', async () => {
    expect(await verify(acme)).toEqual({
      exitCode: 0,
      output: 'The change history of "acme" is intact: 8 entries (Sequence 1..8).\n',
    });
  });

  it('exits 1 naming the place of a deleted entry', async () => {
    await makeChanges(api, deleted, 4);
    await seal(deleted);
    expect((await verify(deleted)).exitCode).toBe(0);
    await api.database.handle.query('delete from change_history where tenant_id = $1 and seq = 2', [
      await tenantId(api, deleted),
    ]);
    expect(await verify(deleted)).toEqual({
      exitCode: 1,
      output: 'Sequence 2 is missing: that entry was deleted.',
    });
  });

  it('exits 1 naming the last entries when they were deleted', async () => {
    await api.database.handle.query(
      'delete from change_history where tenant_id = $1 and seq >= 2',
      [await tenantId(api, deleted)],
    );
    expect(await verify(deleted)).toEqual({
      exitCode: 1,
      output: 'Sequence 2 is missing: the last sealed entries were deleted.',
    });
  });

  it('exits 1 naming an entry whose data was edited', async () => {
    await makeChanges(api, edited, 3);
    await seal(edited);
    const id = await tenantId(api, edited);
    await api.database.handle.query(
      `update change_history set data = replace(data, 'Brand', 'Brant') where tenant_id = $1 and seq = 2`,
      [id],
    );
    const result = await verify(edited);
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(
      /^Sequence 2 \(Id \d+, brand \d+ version 1, changed .+\) was altered/,
    );
  });

  it('refuses a tenant that does not exist', async () => {
    expect(await omniHistory(api, 'verify', { tenant: 'nobody' })).toEqual({
      exitCode: 1,
      output: 'Tenant "nobody" does not exist.',
    });
  });
});

describe('GET /management/history/export', () => {
  it('streams the sealed entries, oldest first, each with Data, Sequence, Hash', async () => {
    await makeChanges(api, exported, 2);
    await seal(exported);
    await makeChanges(api, exported, 1); // not sealed yet: not exported
    const r = await exportOf(exported);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = linesOf(r.body);
    expect(lines.map((l) => l.Sequence)).toEqual([1, 2, 3]);
    expect(lines[0]).toMatchObject({
      ResourceType: 'app',
      Action: 'created',
      Actor: { Type: 'System' },
    });
    expect(lines[1]).toMatchObject({
      ResourceType: 'brand',
      Action: 'created',
      Version: 1,
      PreviousVersion: null,
      Actor: { Type: 'App', Id: exported.appId },
      Data: { Name: expect.stringMatching(/^Brand /) as unknown },
    });
    expect(lines[0]!.PreviousHash).toBe('');
    expect(lines[1]!.PreviousHash).toBe(lines[0]!.Hash);
    expect(lines[0]!.ChangedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const stored = await entries(api, exported);
    expect(lines.map((l) => l.Hash)).toEqual(stored.slice(0, 3).map((e) => e.hash));
  });

  it('filters by From, To and ResourceType', async () => {
    const all = linesOf((await exportOf(exported)).body);
    const at = all[1]!.ChangedAt as string;
    expect(linesOf((await exportOf(exported, `?From=${at}`)).body).map((l) => l.Sequence)).toEqual([
      2, 3,
    ]);
    expect(linesOf((await exportOf(exported, `?To=${at}`)).body).map((l) => l.Sequence)).toEqual([
      1,
    ]);
    expect(linesOf((await exportOf(exported, '?ResourceType=item')).body)).toEqual([]);
    expect(
      linesOf((await exportOf(exported, '?ResourceType=brand')).body).map((l) => l.Sequence),
    ).toEqual([2, 3]);
  });

  it("answers only the tenant's own entries", async () => {
    const hashes = new Set(linesOf((await exportOf(exported)).body).map((l) => l.Hash));
    for (const line of linesOf((await exportOf(acme)).body))
      expect(hashes.has(line.Hash)).toBe(false);
  });

  it('refuses bad input with 400', async () => {
    expectError(await exportOf(exported, '?From=yesterday'), 400, 'ValidationFailed');
    expectError(await exportOf(exported, '?Take=3'), 400, 'ValidationFailed');
  });

  it('needs the management scope', async () => {
    const token = await api.issueToken(exported, exported.appId, exported.secret, 'public private');
    expect((await exportOf(exported, '', token)).statusCode).toBe(403);
  });
});

describe('omni history export and verify --file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'history-export-'));
  const file = path.join(dir, 'export.ndjson');

  it('writes what the route answers; the file verifies', async () => {
    const printed = await omniHistory(api, 'export', { tenant: exported.name });
    expect(printed.exitCode).toBe(0);
    expect(printed.output).toBe((await exportOf(exported)).body);
    writeFileSync(file, printed.output);
    expect(await omniHistory(api, 'verify', { tenant: exported.name, file })).toEqual({
      exitCode: 0,
      output: `${file} is intact: 3 entries (Sequence 1..3).\n`,
    });
    const since = linesOf(printed.output)[1]!.ChangedAt as string;
    const part = await omniHistory(api, 'export', { tenant: exported.name, from: since });
    expect(linesOf(part.output).map((l) => l.Sequence)).toEqual([2, 3]);
  });

  it('names a line whose content was changed in the file', async () => {
    const text = readFileSync(file, 'utf8');
    const changed = path.join(dir, 'changed.ndjson');
    writeFileSync(changed, text.replace(/Brand (\d+)/, 'Brant $1'));
    expect(await omniHistory(api, 'verify', { tenant: exported.name, file: changed })).toEqual({
      exitCode: 1,
      output: expect.stringMatching(/^Line 2 \(Sequence 2, Id \d+\) was altered/) as unknown,
    });
    writeFileSync(changed, text.replace(/"UserAgent":"[^"]*"/, '"UserAgent":"forged"'));
    expect(
      (await omniHistory(api, 'verify', { tenant: exported.name, file: changed })).output,
    ).toMatch(/^Line \d+ .* was altered/);
    writeFileSync(
      changed,
      text
        .split('\n')
        .filter((_, i) => i !== 1)
        .join('\n'),
    );
    // A line left out of a file is not found by the file alone, but every other still verifies.
    expect(
      (await omniHistory(api, 'verify', { tenant: exported.name, file: changed })).exitCode,
    ).toBe(0);
    expect(await omniHistory(api, 'verify', { tenant: 'acme', file })).toEqual({
      exitCode: 1,
      output: expect.stringMatching(/^Line \d+ .* was altered/) as unknown,
    });
  });

  it('names an exported entry deleted or changed in the database since', async () => {
    const id = await tenantId(api, exported);
    const [third] = await api.database.handle.query<{ data: string }>(
      'select data from change_history where tenant_id = $1 and seq = 3',
      [id],
    );
    await api.database.handle.query(
      `update change_history set data = '{"Name":"x"}' where tenant_id = $1 and seq = 3`,
      [id],
    );
    expect((await omniHistory(api, 'verify', { tenant: exported.name, file })).output).toMatch(
      /^Line 3 \(Sequence 3, Id \d+\) was changed in the database since the export\.$/,
    );
    await api.database.handle.query(
      'update change_history set data = $2 where tenant_id = $1 and seq = 3',
      [id, third!.data],
    );
    await api.database.handle.query('delete from change_history where tenant_id = $1 and seq = 2', [
      id,
    ]);
    expect((await omniHistory(api, 'verify', { tenant: exported.name, file })).output).toMatch(
      /^Line 2 \(Sequence 2, Id \d+\) is no longer in the database: it was deleted\.$/,
    );
  });

  it('refuses a file that is not an export', async () => {
    const bad = path.join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"Id":1}\n');
    expect((await omniHistory(api, 'verify', { tenant: exported.name, file: bad })).output).toBe(
      'Line 1 is not an entry of a history export.',
    );
    writeFileSync(bad, 'not json\n');
    expect((await omniHistory(api, 'verify', { tenant: exported.name, file: bad })).output).toMatch(
      /^Line 1 is not a JSON object/,
    );
    expect(
      await omniHistory(api, 'verify', { tenant: exported.name, file: path.join(dir, 'none') }),
    ).toEqual({ exitCode: 1, output: `Cannot read ${path.join(dir, 'none')}.` });
  });

  it('hashes what the documentation says', async () => {
    // The canonical text of docs/api.md, "Tamper evidence", for an entry of the file.
    const [line] = readFileSync(file, 'utf8').split('\n');
    const raw = (name: string) => new RegExp(`"${name}":(\\{.*?\\})(,"|\\}$)`).exec(line!)![1];
    const e = JSON.parse(line!) as Record<string, unknown>;
    const data = /"Data":(.*)\}$/.exec(line!)![1];
    const text = JSON.stringify([
      e.Sequence,
      e.Id,
      await tenantId(api, exported),
      e.ChangedAt,
      e.ResourceType,
      e.ResourceId,
      e.Action,
      e.Version,
      raw('Actor'),
      raw('Context'),
      data,
      e.PreviousHash,
    ]);
    expect(createHash('sha256').update(text).digest('hex')).toBe(e.Hash);
  });
});
