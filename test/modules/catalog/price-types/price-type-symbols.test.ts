// A price type's symbol identifies it within its tenant (docs/api.md, "Price types"): a second
// price type of one symbol, whatever the case, is 409 DuplicatePriceType on create and update;
// descriptions may repeat; another tenant may have the same symbol; a duplicate from before the
// rule stays editable; the import matches symbols case-insensitively and creates no duplicate.
import { describe, expect, it } from 'vitest';
import type { TestTenant } from '../../../support/test-api.ts';
import { useTenant } from '../../../support/test-api.ts';
import { CATALOG, unique, type Page, type PriceTypeJson } from '../catalog-fixtures.ts';
import { expectError, expectStatus } from '../../../support/expectations.ts';
import { JSONL, jsonl, runImport, useImportApi } from '../imports/imports-fixtures.ts';

const api = useImportApi();
const acme = useTenant(api, 'symbols');
const other = useTenant(api, 'symbols-other');

const URL = `${CATALOG}/pricetype`;
const post = (body: unknown, tenant: TestTenant = acme) =>
  api.call({ method: 'POST', url: URL, tenant, body });
const put = (id: number, body: unknown, headers: Record<string, string> = {}) =>
  api.call({ method: 'PUT', url: `${URL}/${id}`, tenant: acme, body, headers });
const created = async (body: { Description: string; PriceTypeSymbol: string }, tenant = acme) => {
  const response = await post(body, tenant);
  expectStatus(response, 201);
  return response.json<PriceTypeJson>();
};
const all = async (tenant: TestTenant = acme) => {
  const response = await api.call({ url: `${CATALOG}/pricetypes?take=1000`, tenant });
  expectStatus(response, 200);
  return response.json<Page<PriceTypeJson>>().Results;
};
/** A symbol no other test of the file uses (at most 16 characters). */
const symbol = () => unique('S').replace(' ', '');

/** A price type sharing a symbol with another, as a database from before the rule may hold. */
async function legacyDuplicate(of: PriceTypeJson, symbolAs = of.PriceTypeSymbol) {
  const [row] = await api.database.handle.query<{ id: number }>(
    `insert into price_types (tenant_id, description, symbol)
     select id, 'Legacy', $2 from tenants where name = $1 returning id`,
    [acme.name, symbolAs],
  );
  return row!.id;
}

describe('POST /private/catalog/pricetype (symbols)', () => {
  it('refuses a second price type of one symbol with 409 DuplicatePriceType, whatever the case', async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    for (const same of [eur.PriceTypeSymbol, eur.PriceTypeSymbol.toLowerCase()]) {
      const body = expectError(
        await post({ Description: 'Euro again', PriceTypeSymbol: same }),
        409,
        'DuplicatePriceType',
      );
      expect(body.FriendlyDescription).toBe(
        `A price type with the symbol "${same}" already exists.`,
      );
      expect(body.Errors).toBeUndefined();
    }
    expect((await all()).filter((p) => p.Description === 'Euro again')).toEqual([]);
  });

  it('takes a description that another price type has (only the symbol identifies)', async () => {
    const first = await created({ Description: 'Retail', PriceTypeSymbol: symbol() });
    const second = await created({ Description: 'Retail', PriceTypeSymbol: symbol() });
    expect(second.Id).not.toBe(first.Id);
  });

  it('takes a symbol that another tenant has', async () => {
    const shared = symbol();
    await created({ Description: 'Ours', PriceTypeSymbol: shared });
    const theirs = await created({ Description: 'Theirs', PriceTypeSymbol: shared }, other);
    expect((await all(other)).map((p) => p.Id)).toContain(theirs.Id);
  });

  it('refuses a symbol shared by price types from before the rule', async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    await legacyDuplicate(eur);
    expectError(
      await post({ Description: 'Third', PriceTypeSymbol: eur.PriceTypeSymbol }),
      409,
      'DuplicatePriceType',
    );
  });
});

describe('PUT /private/catalog/pricetype/{id} (symbols)', () => {
  it("refuses another price type's symbol with 409, whatever the case, and changes nothing", async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    const usd = await created({ Description: 'Dollar', PriceTypeSymbol: symbol() });
    expectError(
      await put(usd.Id, {
        Description: 'Dollar',
        PriceTypeSymbol: eur.PriceTypeSymbol.toLowerCase(),
      }),
      409,
      'DuplicatePriceType',
    );
    const fetched = await api.call({ url: `${URL}/${usd.Id}`, tenant: acme });
    expect(fetched.json()).toEqual(usd);
  });

  it('keeps its own symbol, in another case too, and takes a free one', async () => {
    const gbp = await created({ Description: 'Pound', PriceTypeSymbol: symbol() });
    const kept = await put(gbp.Id, {
      Description: 'Sterling',
      PriceTypeSymbol: gbp.PriceTypeSymbol,
    });
    expectStatus(kept, 200);
    const lower = gbp.PriceTypeSymbol.toLowerCase();
    expectStatus(await put(gbp.Id, { Description: 'Sterling', PriceTypeSymbol: lower }), 200);
    const free = symbol();
    const moved = await put(gbp.Id, { Description: 'Sterling', PriceTypeSymbol: free });
    expectStatus(moved, 200);
    expect(moved.json<PriceTypeJson>().PriceTypeSymbol).toBe(free);
  });

  it('lets a duplicate from before the rule change its description, but not take the symbol back once changed', async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    const legacy = await legacyDuplicate(eur);
    expectStatus(
      await put(legacy, { Description: 'Legacy euro', PriceTypeSymbol: eur.PriceTypeSymbol }),
      200,
    );
    const fresh = symbol();
    expectStatus(await put(legacy, { Description: 'Legacy', PriceTypeSymbol: fresh }), 200);
    expectError(
      await put(legacy, { Description: 'Legacy', PriceTypeSymbol: eur.PriceTypeSymbol }),
      409,
      'DuplicatePriceType',
    );
  });

  it('answers 412 for a stale If-Match before looking at the symbol', async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    const usd = await created({ Description: 'Dollar', PriceTypeSymbol: symbol() });
    expectError(
      await put(
        usd.Id,
        { Description: 'Dollar', PriceTypeSymbol: eur.PriceTypeSymbol },
        { 'if-match': '"v999"' },
      ),
      412,
      'PreconditionFailed',
    );
  });

  it("does not see another tenant's price types", async () => {
    const shared = symbol();
    await created({ Description: 'Theirs', PriceTypeSymbol: shared }, other);
    const ours = await created({ Description: 'Ours', PriceTypeSymbol: symbol() });
    expectStatus(await put(ours.Id, { Description: 'Ours', PriceTypeSymbol: shared }), 200);
  });
});

describe('POST /private/catalog/imports (price type symbols)', () => {
  it('matches a symbol in another case to the price type that has it, and creates no duplicate', async () => {
    const eur = await created({ Description: 'Euro', PriceTypeSymbol: symbol() });
    const lower = eur.PriceTypeSymbol.toLowerCase();
    const job = await runImport(
      api,
      acme,
      jsonl([
        { RecordType: 'PriceType', PriceTypeSymbol: lower, Description: 'not added' },
        { Title: 'Priced', Prices: [{ PriceTypeSymbol: lower, NormalPrice: 5 }] },
      ]),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 2, RowsFailed: 0 });
    const same = (await all()).filter(
      (p) => p.PriceTypeSymbol.toLowerCase() === eur.PriceTypeSymbol.toLowerCase(),
    );
    expect(same).toEqual([eur]);
  });

  it('creates a missing symbol once, however many records and cases name it', async () => {
    const fresh = symbol();
    const job = await runImport(
      api,
      acme,
      jsonl([
        { Title: 'One', Prices: [{ PriceTypeSymbol: fresh, NormalPrice: 1 }] },
        { Title: 'Two', Prices: [{ PriceTypeSymbol: fresh.toLowerCase(), NormalPrice: 2 }] },
      ]),
      JSONL,
      'createMissing=true',
    );
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 2 });
    const made = (await all()).filter(
      (p) => p.PriceTypeSymbol.toLowerCase() === fresh.toLowerCase(),
    );
    expect(made).toHaveLength(1);
  });
});
