// The change history as an integrator reads it (docs/api.md, "Change history"): a resource's
// entries at its path and one version with its data, and the tenant's history as one list, with
// filters, keyset pages, bad input, other tenants' entries and the rights to read them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { expectError, expectFieldError, expectStatus } from '../../support/expectations.ts';
import {
  CATALOG,
  consumerToken,
  createBrand,
  createPriceType,
  unique,
} from '../catalog/catalog-fixtures.ts';
import { createMember, signIn } from '../members/members-fixtures.ts';
import { allPages, pageOf, type HistoryEntryJson } from './history-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');

/** A brand created, renamed and deleted by acme's app, with the names it had. */
let brand: { id: number; names: string[] };
let memberToken: string;
let analystToken: string;
let memberId: string;

beforeAll(async () => {
  const names: string[] = [unique('Brand'), unique('Brand')];
  const created = await api.call({
    method: 'POST',
    url: `${CATALOG}/brand`,
    tenant: acme,
    body: { Name: names[0] },
    headers: { 'user-agent': 'history-test/1', 'idempotency-key': 'history-brand-1' },
  });
  expectStatus(created, 201);
  const id = created.json<{ Id: number }>().Id;
  expectStatus(
    await api.call({
      method: 'PUT',
      url: `${CATALOG}/brand/${id}`,
      tenant: acme,
      body: { Name: names[1] },
    }),
    200,
  );
  expectStatus(
    await api.call({ method: 'DELETE', url: `${CATALOG}/brand/${id}`, tenant: acme }),
    204,
  );
  brand = { id, names };

  memberId = (await createMember(api, acme, 'history-admin', ['admin'])).Id;
  memberToken = (await signIn(api, acme, 'history-admin')).access_token;
  await createMember(api, acme, 'history-analyst', ['analyst']);
  analystToken = (await signIn(api, acme, 'history-analyst')).access_token;
});

describe('GET /private/catalog/brand/{id}/history', () => {
  it('answers its entries newest first: who, from where, the versions and what changed', async () => {
    const page = pageOf(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history`, tenant: acme }),
    );
    expect(page.Continuation).toBeNull();
    expect(page.Results.map((e) => [e.Action, e.Version, e.PreviousVersion])).toEqual([
      ['deleted', 3, 2],
      ['updated', 2, 1],
      ['created', 1, null],
    ]);
    const [deleted, updated, created] = page.Results as [
      HistoryEntryJson,
      HistoryEntryJson,
      HistoryEntryJson,
    ];
    for (const entry of page.Results) {
      expect(entry.ResourceType).toBe('brand');
      expect(entry.ResourceId).toBe(String(brand.id));
      expect(entry.Actor).toMatchObject({ Type: 'App', Id: acme.appId });
      expect(entry.RequestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(entry.ChangedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(entry).not.toHaveProperty('Data');
    }
    expect(created.UserAgent).toBe('history-test/1');
    expect(created.IdempotencyKey).toBe('history-brand-1');
    expect(created.Operation).toBe('createBrand');
    expect(updated.Operation).toBe('updateBrand');
    expect(created.Changes).toContainEqual({ Path: 'Name', Old: null, New: brand.names[0] });
    expect(created.Changes.every((c) => c.Old === null)).toBe(true);
    expect(updated.Changes).toEqual([{ Path: 'Name', Old: brand.names[0], New: brand.names[1] }]);
    expect(deleted.Changes).toContainEqual({ Path: 'Name', Old: brand.names[1], New: null });
    expect(deleted.Changes.every((c) => c.New === null)).toBe(true);
    expect(updated.Id).toBeGreaterThan(created.Id);
  });

  it('pages through the entries with Take and Continuation', async () => {
    const first = pageOf(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history?Take=2`, tenant: acme }),
    );
    expect(first.Results.map((e) => e.Version)).toEqual([3, 2]);
    expect(first.Continuation).toEqual(expect.any(String));
    const second = pageOf(
      await api.call({
        url: `${CATALOG}/brand/${brand.id}/history?Take=2&Continuation=${encodeURIComponent(first.Continuation!)}`,
        tenant: acme,
      }),
    );
    expect(second.Results.map((e) => e.Version)).toEqual([1]);
    expect(second.Continuation).toBeNull();
    // Each entry tells what changed whichever page it is on: the page's last one too.
    const whole = pageOf(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history`, tenant: acme }),
    );
    expect([...first.Results, ...second.Results]).toEqual(whole.Results);
    expect(first.Results[1]!.Changes).toEqual([
      { Path: 'Name', Old: brand.names[0], New: brand.names[1] },
    ]);
  });

  it('answers an empty page for a resource that exists without entries yet', async () => {
    // Price types record no history yet (another change adds it): their routes answer all the same.
    const priceType = await createPriceType(api, acme);
    const page = pageOf(
      await api.call({ url: `${CATALOG}/pricetype/${priceType.Id}/history`, tenant: acme }),
    );
    expect(page.Results.every((e) => e.ResourceType === 'price_type')).toBe(true);
  });

  it("is 404 for an unknown id and for another tenant's brand", async () => {
    expectError(
      await api.call({ url: `${CATALOG}/brand/987654/history`, tenant: acme }),
      404,
      'NotFound',
    );
    const theirs = await createBrand(api, globex);
    expectError(
      await api.call({ url: `${CATALOG}/brand/${theirs.Id}/history`, tenant: acme }),
      404,
      'NotFound',
    );
    // Acme's deleted brand is not globex's either.
    expectError(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history`, tenant: globex }),
      404,
      'NotFound',
    );
  });

  it('is 400 for a bad Take or Continuation', async () => {
    const url = `${CATALOG}/brand/${brand.id}/history`;
    for (const take of ['0', '101', 'x', '-1'])
      expectFieldError(await api.call({ url: `${url}?Take=${take}`, tenant: acme }), 'Take');
    for (const token of ['nonsense', 'a.b', 'a.b.c', 'W10.AAAAAAAAAAAAAAAA'])
      expectError(
        await api.call({ url: `${url}?Continuation=${token}`, tenant: acme }),
        400,
        'InvalidHistoryContinuation',
        'Continuation',
      );
    expectFieldError(await api.call({ url: `${url}?Skip=1`, tenant: acme }), 'Skip');
  });

  it("refuses another resource's or tenant's continuation, and an altered one", async () => {
    const first = pageOf(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history?Take=1`, tenant: acme }),
    );
    const token = first.Continuation!;
    const other = await createBrand(api, acme);
    expectError(
      await api.call({
        url: `${CATALOG}/brand/${other.Id}/history?Continuation=${encodeURIComponent(token)}`,
        tenant: acme,
      }),
      400,
      'InvalidHistoryContinuation',
    );
    const [position, check] = token.split('.') as [string, string];
    const altered = Buffer.from(
      Buffer.from(position, 'base64url')
        .toString()
        .replace(/"\d+"\]$/, '"1"]'),
    ).toString('base64url');
    expectError(
      await api.call({
        url: `${CATALOG}/brand/${brand.id}/history?Continuation=${altered}.${check}`,
        tenant: acme,
      }),
      400,
      'InvalidHistoryContinuation',
    );
  });

  it('is 403 for a Consumer app and for a member without history:read', async () => {
    const url = `${CATALOG}/brand/${brand.id}/history`;
    expectError(
      await api.call({ url, tenant: acme, token: await consumerToken(api, acme) }),
      403,
      'InsufficientScope',
    );
    expectError(
      await api.call({ url, tenant: acme, token: analystToken }),
      403,
      'InsufficientPermission',
    );
    expectStatus(await api.call({ url, tenant: acme, token: memberToken }), 200);
  });
});

describe('GET /private/catalog/brand/{id}/history/{version}', () => {
  it('answers the entry of that version with its data', async () => {
    const response = await api.call({
      url: `${CATALOG}/brand/${brand.id}/history/2`,
      tenant: acme,
    });
    expectStatus(response, 200);
    const entry = response.json<HistoryEntryJson>();
    expect(entry).toMatchObject({ Action: 'updated', Version: 2, PreviousVersion: 1 });
    expect(entry.Data).toEqual({ Id: brand.id, Name: brand.names[1] });
    const deleted = (
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history/3`, tenant: acme })
    ).json<HistoryEntryJson>();
    // A delete keeps the state the resource was deleted in.
    expect(deleted.Data).toEqual({ Id: brand.id, Name: brand.names[1] });
  });

  it('is 404 HistoryVersionNotFound for a version it never had', async () => {
    expectError(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history/4`, tenant: acme }),
      404,
      'HistoryVersionNotFound',
    );
  });

  it("is the brand's 404 for another tenant's or an unknown brand", async () => {
    expectError(
      await api.call({ url: `${CATALOG}/brand/${brand.id}/history/1`, tenant: globex }),
      404,
      'NotFound',
    );
    expectError(
      await api.call({ url: `${CATALOG}/brand/987654/history/1`, tenant: acme }),
      404,
      'NotFound',
    );
  });

  it('is 400 for a version that is not a positive integer', async () => {
    for (const version of ['0', 'x', '2147483648'])
      expectFieldError(
        await api.call({ url: `${CATALOG}/brand/${brand.id}/history/${version}`, tenant: acme }),
        'version',
      );
  });

  it('is 403 for a Consumer app and for a member without history:read', async () => {
    const url = `${CATALOG}/brand/${brand.id}/history/1`;
    expectError(
      await api.call({ url, tenant: acme, token: await consumerToken(api, acme) }),
      403,
      'InsufficientScope',
    );
    expectError(
      await api.call({ url, tenant: acme, token: analystToken }),
      403,
      'InsufficientPermission',
    );
  });
});

describe('GET /private/catalog/item/{id}/history', () => {
  it('names the changes of prices by their price type', async () => {
    const [retail, sale] = [await createPriceType(api, acme), await createPriceType(api, acme)];
    const created = await api.call({
      method: 'POST',
      url: `${CATALOG}/item`,
      tenant: acme,
      body: {
        Title: unique('Item'),
        Prices: [
          { PriceTypeId: retail.Id, NormalPrice: 10 },
          { PriceTypeId: sale.Id, NormalPrice: 8 },
        ],
      },
    });
    expectStatus(created, 201);
    const id = created.json<{ Id: number }>().Id;
    expectStatus(
      await api.call({
        method: 'PATCH',
        url: `${CATALOG}/item/${id}`,
        tenant: acme,
        body: {
          Prices: [
            { PriceTypeId: retail.Id, NormalPrice: 12 },
            { PriceTypeId: sale.Id, NormalPrice: 8 },
          ],
        },
      }),
      200,
    );
    const page = pageOf(await api.call({ url: `${CATALOG}/item/${id}/history`, tenant: acme }));
    const [updated] = page.Results as [HistoryEntryJson];
    expect(updated.Action).toBe('updated');
    expect(updated.Changes).toContainEqual({
      Path: `Prices[PriceTypeId=${retail.Id}].NormalPrice`,
      Old: 10,
      New: 12,
    });
    expect(updated.Changes.map((c) => c.Path)).not.toContain(
      `Prices[PriceTypeId=${sale.Id}].NormalPrice`,
    );
  });
});

describe('GET /management/oauth/apps/{applicationId}/history', () => {
  it('never shows a secret', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/management/oauth/apps',
      tenant: acme,
      body: { Name: unique('App'), ApplicationTypeId: 2 },
    });
    expectStatus(created, 201);
    const app = created.json<{ ApplicationId: string; ApplicationSecret: string }>();
    const rotated = await api.call({
      method: 'POST',
      url: `/management/oauth/apps/${app.ApplicationId}/secret`,
      tenant: acme,
    });
    expectStatus(rotated, 200);
    const secret = rotated.json<{ ApplicationSecret: string }>().ApplicationSecret;
    const page = await api.call({
      url: `/management/oauth/apps/${app.ApplicationId.toUpperCase()}/history`,
      tenant: acme,
    });
    expect(pageOf(page).Results.length).toBeGreaterThan(0);
    const version = await api.call({
      url: `/management/oauth/apps/${app.ApplicationId}/history/1`,
      tenant: acme,
    });
    expectStatus(version, 200);
    expect(version.json<HistoryEntryJson>().Data).toMatchObject({
      ApplicationId: app.ApplicationId,
    });
    // Only that it changed: the rotation's entry says so, and no value of it shows anywhere.
    expect(pageOf(page).Results[0]!.Changes).toContainEqual({
      Path: 'ApplicationSecret',
      Old: null,
      New: 'changed',
    });
    for (const body of [page.body, version.body]) {
      expect(body).not.toContain(app.ApplicationSecret);
      expect(body).not.toContain(secret);
    }
  });
});

describe('GET /management/integration/endpoint/history', () => {
  it('is 404 EndpointNotFound while the tenant never had an endpoint', async () => {
    expectError(
      await api.call({ url: '/management/integration/endpoint/history', tenant: globex }),
      404,
      'EndpointNotFound',
    );
  });
});

describe('GET /management/history', () => {
  it("lists the tenant's entries newest first, never another tenant's", async () => {
    await createBrand(api, globex);
    const { entries } = await allPages(api, acme, '/management/history', 100);
    expect(entries.length).toBeGreaterThan(3);
    const keys = entries.map((e) => `${e.ChangedAt}|${String(e.Id).padStart(20, '0')}`);
    expect(keys).toEqual([...keys].sort().reverse());
    const theirs = pageOf(await api.call({ url: '/management/history?Take=100', tenant: globex }));
    const ids = new Set(theirs.Results.map((e) => e.Id));
    expect(entries.filter((e) => ids.has(e.Id))).toEqual([]);
    expect(entries.map((e) => e.ResourceId)).toContain(String(brand.id));
  });

  it('narrows by resource, id, action, actor and time', async () => {
    const byId = pageOf(
      await api.call({
        url: `/management/history?ResourceType=brand&ResourceId=${brand.id}`,
        tenant: acme,
      }),
    );
    expect(byId.Results.map((e) => e.Version)).toEqual([3, 2, 1]);
    const deletes = pageOf(
      await api.call({
        url: '/management/history?Action=deleted&ResourceType=brand',
        tenant: acme,
      }),
    );
    expect(deletes.Results.map((e) => e.ResourceId)).toEqual([String(brand.id)]);

    // A member's change, found by actor.
    const made = await api.call({
      method: 'POST',
      url: `${CATALOG}/brand`,
      tenant: acme,
      token: memberToken,
      body: { Name: unique('Member brand') },
    });
    expectStatus(made, 201);
    const byMember = pageOf(
      await api.call({
        url: `/management/history?ActorType=Member&ActorId=${memberId}`,
        tenant: acme,
      }),
    );
    expect(byMember.Results.map((e) => e.ResourceId)).toEqual([
      String(made.json<{ Id: number }>().Id),
    ]);
    expect(byMember.Results[0]!.Actor).toMatchObject({
      Type: 'Member',
      Id: memberId,
      Name: 'history-admin',
    });
    const byType = pageOf(
      await api.call({ url: '/management/history?ActorType=Member', tenant: acme }),
    );
    expect(byType.Results.every((e) => e.Actor.Type === 'Member')).toBe(true);
    expect(byType.Results.length).toBeGreaterThan(0);
    const apps = pageOf(
      await api.call({ url: `/management/history?ActorId=${acme.appId}&Take=100`, tenant: acme }),
    );
    expect(apps.Results.every((e) => e.Actor.Id === acme.appId)).toBe(true);

    const created = byId.Results.at(-1)!;
    const deleted = byId.Results[0]!;
    const range = pageOf(
      await api.call({
        url: `/management/history?ResourceId=${brand.id}&From=${created.ChangedAt}&To=${created.ChangedAt}`,
        tenant: acme,
      }),
    );
    expect(range.Results.map((e) => e.Id)).toContain(created.Id);
    expect(range.Results.every((e) => e.ChangedAt === created.ChangedAt)).toBe(true);
    const later = pageOf(
      await api.call({
        url: `/management/history?ResourceId=${brand.id}&From=${encodeURIComponent(
          new Date(Date.parse(deleted.ChangedAt) + 1).toISOString(),
        )}`,
        tenant: acme,
      }),
    );
    expect(later.Results.map((e) => e.Id)).not.toContain(deleted.Id);
  });

  it('pages through many entries without a duplicate or a gap', async () => {
    for (let i = 0; i < 23; i++) await createBrand(api, acme);
    const whole = pageOf(await api.call({ url: '/management/history?Take=100', tenant: acme }));
    expect(whole.Results.length).toBeGreaterThan(25);
    const { entries, pages } = await allPages(api, acme, '/management/history', 4);
    expect(pages).toBeGreaterThan(6);
    expect(entries.map((e) => e.Id)).toEqual(whole.Results.map((e) => e.Id));
    const filtered = await allPages(api, acme, '/management/history?ResourceType=brand', 5);
    expect(filtered.entries.map((e) => e.Id)).toEqual(
      whole.Results.filter((e) => e.ResourceType === 'brand').map((e) => e.Id),
    );
  });

  it('is 400 for a bad Take, date, filter or Continuation', async () => {
    for (const query of ['Take=0', 'Take=101', 'Take=ten'])
      expectFieldError(
        await api.call({ url: `/management/history?${query}`, tenant: acme }),
        'Take',
      );
    for (const query of ['From=yesterday', 'From=2026-02-30T00:00:00Z', 'To=2026-01-01'])
      expectFieldError(
        await api.call({ url: `/management/history?${query}`, tenant: acme }),
        query.split('=')[0]!,
      );
    expectFieldError(
      await api.call({ url: '/management/history?ActorType=Robot', tenant: acme }),
      'ActorType',
    );
    expectFieldError(
      await api.call({ url: '/management/history?Action=touched', tenant: acme }),
      'Action',
    );
    expectError(
      await api.call({
        url: '/management/history?From=2026-02-01T00:00:00Z&To=2026-01-01T00:00:00Z',
        tenant: acme,
      }),
      400,
      'InvalidHistoryQuery',
      'From',
    );
    expectError(
      await api.call({ url: '/management/history?Continuation=%00%01', tenant: acme }),
      400,
      'InvalidHistoryContinuation',
    );
    // A continuation goes on with the filters it was issued for only.
    const first = pageOf(await api.call({ url: '/management/history?Take=1', tenant: acme }));
    expectError(
      await api.call({
        url: `/management/history?Take=1&Action=created&Continuation=${encodeURIComponent(first.Continuation!)}`,
        tenant: acme,
      }),
      400,
      'InvalidHistoryContinuation',
    );
    // Nor for another tenant.
    expectError(
      await api.call({
        url: `/management/history?Take=1&Continuation=${encodeURIComponent(first.Continuation!)}`,
        tenant: globex,
      }),
      400,
      'InvalidHistoryContinuation',
    );
  });

  it('is 403 for a Consumer app and for a member without history:read', async () => {
    expectError(
      await api.call({
        url: '/management/history',
        tenant: acme,
        token: await consumerToken(api, acme),
      }),
      403,
      'InsufficientScope',
    );
    expectError(
      await api.call({ url: '/management/history', tenant: acme, token: analystToken }),
      403,
      'InsufficientPermission',
    );
    expectStatus(
      await api.call({ url: '/management/history', tenant: acme, token: memberToken }),
      200,
    );
  });
});
