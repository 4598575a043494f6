// The change history records every change of every resource kind that records no events (their
// own triggers: attribute types, price types, device types, webhook subscriptions, members,
// invitations), one entry per operation, naming its actor, and never a secret.
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../../support/expectations.ts';
import { useTenant } from '../../support/test-api.ts';
import { CATALOG, createItem, createPriceType, unique } from '../catalog/catalog-fixtures.ts';
import { useImportApi } from '../catalog/imports/imports-fixtures.ts';
import {
  createMember,
  GOOD_PASSWORD,
  signIn,
  INVITATIONS,
  invite,
  invitationLink,
} from '../members/members-fixtures.ts';
import {
  appActor,
  entriesAfter,
  historyHolds,
  historyMark,
  onlyEntryOf,
} from './history-row-fixtures.ts';

const api = useImportApi({ WEBHOOK_ALLOWED_HOSTS: 'receiver.internal:9000' });
const acme = useTenant(api, 'acme');

const call = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  api.call({ method, url, tenant: acme, ...(body !== undefined ? { body } : {}) });

/** Create, update (PUT), partial update (PATCH when the kind has it) and delete of a kind. */
async function lifecycle(options: {
  resource: string;
  create: () => Promise<{ id: string; body: Record<string, unknown> }>;
  put: (id: string) => Promise<unknown>;
  patch?: (id: string) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
}) {
  let id = '';
  const created = await onlyEntryOf(api, acme, options.resource, async () => {
    id = (await options.create()).id;
  });
  expect(created).toMatchObject({ resource_id: id, action: 'created', version: 1 });
  expect(created.actor).toEqual(appActor(acme));
  expect(typeof created.context.RequestId).toBe('string');
  const steps: [string, (id: string) => Promise<unknown>][] = [['updated', options.put]];
  if (options.patch) steps.push(['updated', options.patch]);
  steps.push(['deleted', options.remove]);
  let version = 1;
  for (const [action, step] of steps) {
    const entry = await onlyEntryOf(api, acme, options.resource, () => step(id));
    version += 1;
    expect(entry).toMatchObject({ resource_id: id, action, version });
    expect(entry.actor).toEqual(appActor(acme));
  }
  return id;
}

describe('attribute types', () => {
  it('create, PUT, PATCH and DELETE each leave one attribute_type entry', async () => {
    let last: Record<string, unknown> = {};
    await lifecycle({
      resource: 'attribute_type',
      create: async () => {
        const r = await call('POST', `${CATALOG}/dynamicattributetypes`, {
          Description: unique('Colour'),
        });
        expectStatus(r, 201);
        last = r.json();
        return { id: String(last.Id), body: last };
      },
      put: async (id) =>
        expectStatus(
          await call('PUT', `${CATALOG}/dynamicattributetypes/${id}`, {
            Description: unique('Hue'),
          }),
          200,
        ),
      patch: async (id) =>
        expectStatus(
          await call('PATCH', `${CATALOG}/dynamicattributetypes/${id}`, {
            Description: unique('Tint'),
          }),
          200,
        ),
      remove: async (id) =>
        expectStatus(await call('DELETE', `${CATALOG}/dynamicattributetypes/${id}`), 204),
    });
  });

  it('records the attribute type as the API shows it', async () => {
    const entry = await onlyEntryOf(api, acme, 'attribute_type', async () => {
      const r = await call('POST', `${CATALOG}/dynamicattributetypes`, {
        Description: unique('Size'),
      });
      expectStatus(r, 201);
      expect(typeof r.json<{ Id: unknown }>().Id).toBe('number');
    });
    const shown = await api.call({
      url: `${CATALOG}/dynamicattributetypes/${entry.resource_id}`,
      tenant: acme,
    });
    expect(entry.data).toEqual(shown.json());
  });
});

describe('price types', () => {
  it('create, PUT and DELETE each leave one price_type entry, with the type as shown', async () => {
    await lifecycle({
      resource: 'price_type',
      create: async () => {
        const p = await createPriceType(api, acme);
        return { id: String(p.Id), body: p as unknown as Record<string, unknown> };
      },
      put: async (id) =>
        expectStatus(
          await call('PUT', `${CATALOG}/pricetype/${id}`, {
            Description: 'Euro',
            PriceTypeSymbol: unique('E'),
          }),
          200,
        ),
      remove: async (id) => expectStatus(await call('DELETE', `${CATALOG}/pricetype/${id}`), 204),
    });
  });

  it('a delete refused at commit (the type is in use: 409) leaves no entry', async () => {
    const type = await createPriceType(api, acme);
    await createItem(api, acme, { Prices: [{ PriceTypeId: type.Id, NormalPrice: 5 }] });
    const mark = await historyMark(api, acme);
    const refused = await call('DELETE', `${CATALOG}/pricetype/${type.Id}`);
    expect(refused.statusCode).toBe(409);
    expect(await entriesAfter(api, acme, mark)).toEqual([]);
  });
});

describe('device types', () => {
  it('create, PUT and DELETE each leave one device_type entry', async () => {
    await lifecycle({
      resource: 'device_type',
      create: async () => {
        const r = await call('POST', '/management/company/devicetypes', {
          Description: unique('Kiosk'),
        });
        expectStatus(r, 201);
        const body = r.json<{ Id: number }>();
        return { id: String(body.Id), body };
      },
      put: async (id) =>
        expectStatus(
          await call('PUT', `/management/company/devicetypes/${id}`, {
            Description: unique('Till'),
          }),
          200,
        ),
      remove: async (id) =>
        expectStatus(await call('DELETE', `/management/company/devicetypes/${id}`), 204),
    });
  });
});

describe('webhook subscriptions', () => {
  it('create, PUT, secret rotation and DELETE each leave one entry, never the secret', async () => {
    const secrets: string[] = [];
    const markers: unknown[] = [];
    let id = '';
    const created = await onlyEntryOf(api, acme, 'webhook_subscription', async () => {
      const r = await call('POST', '/management/webhooks', {
        Url: 'http://receiver.internal:9000/hook',
        EventTypes: ['item.*'],
      });
      expectStatus(r, 201);
      const body = r.json<{ Id: number; Secret: string }>();
      id = String(body.Id);
      secrets.push(body.Secret);
    });
    expect(created).toMatchObject({ resource_id: id, action: 'created', version: 1 });
    expect(created.actor).toEqual(appActor(acme));
    markers.push(created.data!.Secret);
    const updated = await onlyEntryOf(api, acme, 'webhook_subscription', async () =>
      expectStatus(
        await call('PUT', `/management/webhooks/${id}`, {
          Url: 'http://receiver.internal:9000/other',
          EventTypes: ['brand.*'],
        }),
        200,
      ),
    );
    expect(updated).toMatchObject({ action: 'updated', version: 2 });
    expect(updated.data).toMatchObject({
      Url: 'http://receiver.internal:9000/other',
      EventTypes: ['brand.*'],
    });
    markers.push(updated.data!.Secret);
    const rotated = await onlyEntryOf(api, acme, 'webhook_subscription', async () => {
      const r = await call('POST', `/management/webhooks/${id}/secret`);
      expectStatus(r, 200);
      secrets.push(r.json<{ Secret: string }>().Secret);
    });
    expect(rotated).toMatchObject({ action: 'updated', version: 3 });
    markers.push(rotated.data!.Secret);
    const deleted = await onlyEntryOf(api, acme, 'webhook_subscription', async () =>
      expectStatus(await call('DELETE', `/management/webhooks/${id}`), 204),
    );
    expect(deleted).toMatchObject({ action: 'deleted', version: 4 });
    // The marker moves with the secret, and only with it.
    expect(markers[1]).toBe(markers[0]);
    expect(markers[2]).not.toBe(markers[1]);
    for (const secret of secrets) expect(await historyHolds(api, secret)).toBe(false);
  });
});

describe('members', () => {
  it('create, PUT (a new password), a member’s own change and DELETE each leave one entry, never the password or its hash', async () => {
    const username = `m${Date.now().toString(36)}`;
    let id = '';
    const created = await onlyEntryOf(api, acme, 'member', async () => {
      id = (await createMember(api, acme, username, ['owner'])).Id;
    });
    expect(created).toMatchObject({ resource_id: id, action: 'created', version: 1 });
    expect(created.actor).toEqual(appActor(acme));
    expect(created.data).toMatchObject({ Username: username, Roles: [{ Id: 'owner' }] });
    const newPassword = 'amber-Quartz-river-57';
    const renamed = await onlyEntryOf(api, acme, 'member', async () =>
      expectStatus(
        await call('PUT', `/management/security/members/${id}`, {
          Username: username,
          Name: 'Renamed',
          Roles: [{ Id: 'owner' }],
        }),
        200,
      ),
    );
    expect(renamed).toMatchObject({ action: 'updated', version: 2 });
    expect(renamed.data!.Password).toBe(created.data!.Password);
    const repassworded = await onlyEntryOf(api, acme, 'member', async () =>
      expectStatus(
        await call('PUT', `/management/security/members/${id}`, {
          Username: username,
          Name: 'Renamed',
          Roles: [{ Id: 'owner' }],
          Password: newPassword,
        }),
        200,
      ),
    );
    expect(repassworded).toMatchObject({ action: 'updated', version: 3 });
    expect(repassworded.data!.Password).not.toBe(renamed.data!.Password);
    // A member's console token: the member, by its username, is the actor.
    const session = await signIn(api, acme, username, newPassword);
    const other = await createMember(api, acme, `o${Date.now().toString(36)}`, ['analyst']);
    const byMember = await onlyEntryOf(api, acme, 'member', async () =>
      expectStatus(
        await api.call({
          method: 'DELETE',
          url: `/management/security/members/${other.Id}`,
          tenant: acme,
          token: session.access_token,
        }),
        204,
      ),
    );
    expect(byMember).toMatchObject({ resource_id: other.Id, action: 'deleted', version: 2 });
    expect(byMember.actor).toEqual({ Type: 'Member', Id: id, Name: username });
    expect(await historyHolds(api, newPassword)).toBe(false);
    expect(await historyHolds(api, GOOD_PASSWORD)).toBe(false);
    const [hash] = await api.database.handle.query<{ h: string }>(
      'select password_hash as h from members where id = $1',
      [id],
    );
    expect(await historyHolds(api, hash!.h)).toBe(false);
    expect(await historyHolds(api, session.access_token)).toBe(false);
  });
});

describe('invitations', () => {
  it('invite, resend and revoke each leave one entry, never the token', async () => {
    const email = `${unique('inv').replace(' ', '-')}@example.com`;
    let id = '';
    const created = await onlyEntryOf(api, acme, 'invitation', async () => {
      id = (await invite(api, acme, email)).Id;
    });
    expect(created).toMatchObject({ resource_id: id, action: 'created', version: 1 });
    expect(created.actor).toEqual(appActor(acme));
    const tokens = [(await invitationLink(api, acme, email)).searchParams.get('token')!];
    const resent = await onlyEntryOf(api, acme, 'invitation', async () =>
      expectStatus(await call('POST', `${INVITATIONS}/${id}/resend`), 200),
    );
    expect(resent).toMatchObject({ action: 'updated', version: 2 });
    tokens.push((await invitationLink(api, acme, email)).searchParams.get('token')!);
    const revoked = await onlyEntryOf(api, acme, 'invitation', async () =>
      expectStatus(await call('DELETE', `${INVITATIONS}/${id}`), 204),
    );
    expect(revoked).toMatchObject({ action: 'deleted', version: 3 });
    for (const token of tokens) expect(await historyHolds(api, token)).toBe(false);
  });
});

describe('apps', () => {
  it('a secret rotation leaves one app entry whose marker moved, never the secret', async () => {
    const r = await call('POST', '/management/oauth/apps', {
      Name: unique('App'),
      ApplicationTypeId: 2,
    });
    expectStatus(r, 201);
    const app = r.json<{ ApplicationId: string; ApplicationSecret: string }>();
    const before = await entriesAfter(api, acme, 0);
    const made = before.find((e) => e.resource === 'app' && e.resource_id === app.ApplicationId)!;
    const rotated = await onlyEntryOf(api, acme, 'app', async () => {
      const answer = await call('POST', `/management/oauth/apps/${app.ApplicationId}/secret`);
      expectStatus(answer, 200);
      expect(
        await historyHolds(api, answer.json<{ ApplicationSecret: string }>().ApplicationSecret),
      ).toBe(false);
    });
    expect(rotated).toMatchObject({
      resource_id: app.ApplicationId,
      action: 'updated',
      version: 2,
    });
    expect(rotated.actor).toEqual(appActor(acme));
    expect(rotated.data!.ApplicationSecret).toEqual(expect.stringMatching(/^set /));
    expect(rotated.data!.ApplicationSecret).not.toEqual(made.data!.ApplicationSecret);
    expect(await historyHolds(api, app.ApplicationSecret)).toBe(false);
    expect(await historyHolds(api, acme.secret)).toBe(false);
  });
});
