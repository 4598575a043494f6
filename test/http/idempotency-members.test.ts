// Idempotency-Key with a console member's token: keys are kept per member of a tenant, apart
// from every other member and from the apps (a member's token names the console as its client,
// not an app, so its keys cannot be an app's).
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, useTenant, errorBody } from '../support/test-api.ts';
import { createMember, signIn, type MemberJson } from '../modules/members/members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
let alice: { member: MemberJson; token: string };
let bob: { member: MemberJson; token: string };

beforeAll(async () => {
  const member = async (username: string) => ({
    member: await createMember(api, acme, username, ['catalog-editor']),
    token: (await signIn(api, acme, username)).access_token,
  });
  alice = await member('alice');
  bob = await member('bob');
});

function postItem(body: unknown, key: string, token?: string): Promise<LightMyRequestResponse> {
  return api.call({
    method: 'POST',
    url: '/private/catalog/item',
    tenant: acme,
    ...(token === undefined ? {} : { token }),
    body,
    headers: { 'idempotency-key': key },
  });
}

async function itemCount(sku: string): Promise<number> {
  const [row] = await api.database.handle.query<{ n: number }>(
    'select count(*)::int as n from items where sku = $1',
    [sku],
  );
  return row!.n;
}

function expectFresh(response: LightMyRequestResponse, status = 201): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['idempotent-replayed']).toBeUndefined();
}

function expectReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse): void {
  expect(replay.statusCode, replay.body).toBe(first.statusCode);
  expect(replay.body).toBe(first.body);
  for (const name of ['content-type', 'location', 'etag', 'x-request-id'])
    expect(replay.headers[name], name).toBe(first.headers[name]);
  expect(replay.headers['idempotent-replayed']).toBe('true');
}

describe("Idempotency-Key with a member's token", () => {
  it('runs a POST once: the retry answers the stored answer and creates nothing', async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token);
    expectFresh(first);
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token), first);
    expect(await itemCount(sku)).toBe(1);
    // Another request of the same member under the key is refused, as for an app.
    const other = await postItem({ Title: 'Lamp', SKU: `${sku}-2` }, key, alice.token);
    expect(other.statusCode).toBe(422);
    expect(errorBody(other).Code).toBe('IdempotencyKeyReused');
    expect(await itemCount(`${sku}-2`)).toBe(0);
  });

  it("keeps the member's keys across its sign-ins (they belong to the member, not the session)", async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token);
    expectFresh(first);
    const again = (await signIn(api, acme, 'alice')).access_token;
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, key, again), first);
  });

  it('runs its own request for another member of the tenant with the same key', async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    const first = await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token);
    expectFresh(first);
    // Another body: a key shared with alice would answer 422; the same body would replay hers.
    const bobs = await postItem({ Title: 'Lamp', SKU: `${sku}-bob` }, key, bob.token);
    expectFresh(bobs);
    expect(bobs.headers.location).not.toBe(first.headers.location);
    // The very same request as alice's runs too (and meets her item), instead of her answer.
    const same = await postItem({ Title: 'Lamp', SKU: sku }, randomUUID(), bob.token);
    expect(errorBody(same).Code).toBe('DuplicateSku');
    const sameKey = await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token);
    expectReplayOf(sameKey, first);
    // And each keeps its own answer.
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: `${sku}-bob` }, key, bob.token), bobs);
    expect(await itemCount(`${sku}-bob`)).toBe(1);
  });

  it('runs its own request for an app with the same key, and the other way round', async () => {
    const key = randomUUID();
    const sku = `SKU-${key}`;
    const members = await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token);
    expectFresh(members);
    const apps = await postItem({ Title: 'Lamp', SKU: `${sku}-app` }, key); // the app's token
    expectFresh(apps);
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: `${sku}-app` }, key), apps);
    expectReplayOf(await postItem({ Title: 'Lamp', SKU: sku }, key, alice.token), members);

    // An app's key first, then a member's.
    const appFirst = randomUUID();
    expectFresh(await postItem({ Title: 'Lamp', SKU: `SKU-${appFirst}` }, appFirst));
    expectFresh(await postItem({ Title: 'Lamp', SKU: `SKU-${appFirst}-m` }, appFirst, bob.token));
  });

  it('runs a PATCH once and replays it', async () => {
    const created = await postItem({ Title: 'Lamp', SKU: `SKU-${randomUUID()}` }, randomUUID());
    const url = created.headers.location!;
    const key = randomUUID();
    const patch = (title: string) =>
      api.call({
        method: 'PATCH',
        url,
        tenant: acme,
        token: bob.token,
        body: { Title: title },
        headers: { 'idempotency-key': key },
      });
    const first = await patch('Patched once');
    expectFresh(first, 200);
    expectReplayOf(await patch('Patched once'), first);
    expect((await patch('Patched twice')).statusCode).toBe(422);
  });

  it("removes a member's keys with the member", async () => {
    const carol = await createMember(api, acme, 'carol', ['catalog-editor']);
    const token = (await signIn(api, acme, 'carol')).access_token;
    const key = randomUUID();
    expectFresh(await postItem({ Title: 'Lamp', SKU: `SKU-${key}` }, key, token));
    const keys = () =>
      api.database.handle.query('select 1 from member_idempotency_keys where key = $1', [key]);
    expect(await keys()).toHaveLength(1);
    const deleted = await api.call({
      method: 'DELETE',
      url: `/management/security/members/${carol.Id}`,
      tenant: acme,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await keys()).toEqual([]);
  });
});
