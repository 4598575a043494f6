// Invitations (/management/security/members/invitations) and the invitation page of the sign-in
// interface (/oauth/invitation): the e-mail lands in the outbox with a single-use, expiring link;
// the invitee chooses a name, username and password and signs in; every documented error, bad
// input, other tenants' invitations out of reach, expired, used, revoked and replaced links.
import { describe, expect, it } from 'vitest';
import { errorBody, useTenant, useTestApi, type TestTenant } from '../../support/test-api.ts';
import {
  GOOD_PASSWORD,
  INVITATIONS,
  acceptInvitation,
  createMember,
  invitationLink,
  invitationMails,
  invite,
  openInvitation,
  signIn,
  type InvitationJson,
  type MemberJson,
} from './members-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
/** A server whose e-mails leave it (a mail transport that accepts every message). */
const mailing = useTestApi({}, { mailTransport: { send: async () => undefined } });
const globex = useTenant(api, 'globex');

const tokenOf = (link: URL) => link.searchParams.get('token')!;

/** Moves an invitation's expiry into the past, as if its seven days were over. */
async function expire(tenant: TestTenant, email: string) {
  const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
  await api.database.handle.query(
    `update member_invitations set expires_at = now() - interval '1 minute'
      where tenant_id = $1 and email = $2`,
    [tenantId, email],
  );
}

const accepting = (token: string, username: string, extra: Record<string, string> = {}) => ({
  token,
  name: 'Ivy Invited',
  username,
  password: GOOD_PASSWORD,
  password_repeat: GOOD_PASSWORD,
  ...extra,
});

async function members(tenant: TestTenant): Promise<MemberJson[]> {
  const response = await api.call({ url: '/management/security/members?take=1000', tenant });
  return response.json<{ Results: MemberJson[] }>().Results;
}

async function openInvitations(tenant: TestTenant): Promise<InvitationJson[]> {
  const response = await api.call({ url: `${INVITATIONS}?take=1000`, tenant });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ Results: InvitationJson[] }>().Results;
}

describe('POST /management/security/members/invitations', () => {
  it('answers 201 with the invitation and its Location, and sends the e-mail with the link', async () => {
    const response = await api.call({
      method: 'POST',
      url: INVITATIONS,
      tenant: acme,
      body: { Email: 'Ivy@Acme.Example', Name: 'Ivy', Roles: [{ Id: 'analyst' }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const invitation = response.json<InvitationJson>();
    expect(invitation).toMatchObject({
      Email: 'ivy@acme.example',
      Name: 'Ivy',
      Roles: [{ Id: 'analyst' }],
      InvitedBy: null,
      IsExpired: false,
    });
    expect(response.headers.location).toBe(`${INVITATIONS}/${invitation.Id}`);
    const sevenDays = Date.parse(invitation.ExpirationDate) - Date.parse(invitation.SentDate);
    expect(Math.round(sevenDays / 3_600_000)).toBe(7 * 24);

    const [mail, ...more] = await invitationMails(api, acme, 'ivy@acme.example');
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your invitation to the acme back office');
    expect(mail!.body).toContain('Hello Ivy,');
    expect(mail!.body).toContain('Analyst: read-only');
    const link = await invitationLink(api, acme, 'ivy@acme.example');
    expect(`${link.origin}${link.pathname}`).toBe(
      `http://${acme.host}:${api.config.publicPort}/oauth/invitation`,
    );
    expect(tokenOf(link)).toMatch(/^[\w-]{43}$/);
    // The link is answered this once, and no e-mail leaves a server without SMTP_URL.
    expect(invitation.InvitationLink).toBe(link.href);
    expect(invitation.EmailSent).toBe(false);
    const listed = await api.call({ url: `${INVITATIONS}/${invitation.Id}`, tenant: acme });
    expect(listed.body).not.toContain(tokenOf(link));
    expect(listed.json<InvitationJson>().InvitationLink).toBeUndefined();
    expect((await api.call({ url: INVITATIONS, tenant: acme })).body).not.toContain(tokenOf(link));
  });

  it('says EmailSent true when the server has a mail transport', async () => {
    const tenant = await mailing.createTenant('mailing');
    const invitation = await invite(mailing, tenant, 'mailed@acme.example');
    expect(invitation.EmailSent).toBe(true);
    expect(invitation.InvitationLink).toBe(
      (await invitationLink(mailing, tenant, 'mailed@acme.example')).href,
    );
  });

  it("names the inviting member (InvitedBy) when a member's token invites", async () => {
    await createMember(api, acme, 'olga', ['owner']);
    const session = await signIn(api, acme, 'olga');
    const invitation = await invite(
      api,
      acme,
      'by-olga@acme.example',
      ['catalog-editor'],
      {},
      session.access_token,
    );
    expect(invitation.InvitedBy).toBe('olga');
    const [mail] = await invitationMails(api, acme, 'by-olga@acme.example');
    expect(mail!.body).toContain('olga invited you');
  });

  it('answers 409 DuplicateInvitation while an invitation to the address has not expired', async () => {
    await invite(api, acme, 'twice@acme.example');
    const response = await api.call({
      method: 'POST',
      url: INVITATIONS,
      tenant: acme,
      body: { Email: 'TWICE@acme.example', Roles: [{ Id: 'owner' }] },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('DuplicateInvitation');
    expect(await invitationMails(api, acme, 'twice@acme.example')).toHaveLength(1);
  });

  it('replaces an expired invitation to the address (its link stops working)', async () => {
    const first = await invite(api, acme, 'late@acme.example');
    const oldLink = await invitationLink(api, acme, 'late@acme.example');
    await expire(acme, 'late@acme.example');
    const second = await invite(api, acme, 'late@acme.example', ['device-manager']);
    expect(second.Id).not.toBe(first.Id);
    expect((await openInvitation(api, acme, tokenOf(oldLink))).statusCode).toBe(404);
    const newLink = await invitationLink(api, acme, 'late@acme.example');
    expect((await openInvitation(api, acme, tokenOf(newLink))).statusCode).toBe(200);
  });

  it('answers 409 AlreadyMember for the address of a member (invited at it, or its username)', async () => {
    await createMember(api, acme, 'mail@acme.example', ['analyst']);
    await invite(api, acme, 'joined@acme.example');
    const link = await invitationLink(api, acme, 'joined@acme.example');
    expect((await acceptInvitation(api, acme, accepting(tokenOf(link), 'joined'))).statusCode).toBe(
      200,
    );
    for (const email of ['mail@acme.example', 'Joined@acme.example']) {
      const response = await api.call({
        method: 'POST',
        url: INVITATIONS,
        tenant: acme,
        body: { Email: email, Roles: [{ Id: 'analyst' }] },
      });
      expect(response.statusCode, email).toBe(409);
      expect(errorBody(response).Code).toBe('AlreadyMember');
    }
  });

  it('answers 400 UnknownRole for a role id the server does not have', async () => {
    const response = await api.call({
      method: 'POST',
      url: INVITATIONS,
      tenant: acme,
      body: { Email: 'role@acme.example', Roles: [{ Id: 'superuser' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).Code).toBe('UnknownRole');
  });

  it.each([
    ['no roles', { Email: 'x@acme.example', Roles: [] }, 'Roles'],
    ['roles left out', { Email: 'x@acme.example' }, ''],
    ['not an e-mail address', { Email: 'not-an-address', Roles: [{ Id: 'analyst' }] }, 'Email'],
    [
      'an address over 254 characters',
      { Email: `${'a'.repeat(250)}@x.io`, Roles: [{ Id: 'analyst' }] },
      'Email',
    ],
    ['a blank name', { Email: 'x@acme.example', Name: '  ', Roles: [{ Id: 'analyst' }] }, 'Name'],
    [
      'an unknown field',
      { Email: 'x@acme.example', Roles: [{ Id: 'analyst' }], Password: 'x' },
      '',
    ],
  ])('answers 400 for %s', async (_case, body, field) => {
    const response = await api.call({ method: 'POST', url: INVITATIONS, tenant: acme, body });
    expect(response.statusCode, response.body).toBe(400);
    const error = errorBody(response);
    if (field) expect(error.Errors?.map((e) => e.Field)).toContain(field);
    expect(await invitationMails(api, acme, 'x@acme.example')).toEqual([]);
  });

  it('lets another tenant invite the same address, each on its own', async () => {
    await invite(api, acme, 'both@example.com');
    await invite(api, globex, 'both@example.com', ['owner']);
    expect(await invitationMails(api, globex, 'both@example.com')).toHaveLength(1);
    const link = await invitationLink(api, globex, 'both@example.com');
    // A globex link means nothing on acme's host.
    expect((await openInvitation(api, acme, tokenOf(link))).statusCode).toBe(404);
    expect((await openInvitation(api, globex, tokenOf(link))).statusCode).toBe(200);
  });

  it('answers 403 to a member without the security permission', async () => {
    await createMember(api, acme, 'ana', ['analyst']);
    const session = await signIn(api, acme, 'ana');
    const response = await api.call({
      method: 'POST',
      url: INVITATIONS,
      tenant: acme,
      token: session.access_token,
      body: { Email: 'sneaky@acme.example', Roles: [{ Id: 'owner' }] },
    });
    expect(response.statusCode).toBe(403);
    expect(errorBody(response).Code).toBe('InsufficientPermission');
  });
});

describe('GET /management/security/members/invitations', () => {
  it('lists the open invitations in creation order with TotalCount, expired ones flagged', async () => {
    const tenant = await api.createTenant('listing');
    await invite(api, tenant, 'one@listing.example');
    await invite(api, tenant, 'two@listing.example');
    await invite(api, tenant, 'three@listing.example');
    await expire(tenant, 'two@listing.example');
    const page = await api.call({ url: `${INVITATIONS}?skip=1&take=1`, tenant });
    expect(page.json()).toMatchObject({
      Results: [{ Email: 'two@listing.example', IsExpired: true }],
      TotalCount: 3,
    });
    expect((await openInvitations(tenant)).map((i) => [i.Email, i.IsExpired])).toEqual([
      ['one@listing.example', false],
      ['two@listing.example', true],
      ['three@listing.example', false],
    ]);
  });

  it('keeps creation order when the database clock stepped back between two invitations', async () => {
    const tenant = await api.createTenant('clock-step');
    await invite(api, tenant, 'earlier@clock.example');
    await invite(api, tenant, 'later@clock.example');
    const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
    await api.database.handle.query(
      `update member_invitations set created_at = add_seconds(created_at, -3600)
        where tenant_id = $1 and email = $2`,
      [tenantId, 'later@clock.example'],
    );
    expect((await openInvitations(tenant)).map((i) => i.Email)).toEqual([
      'earlier@clock.example',
      'later@clock.example',
    ]);
  });

  it("never lists another tenant's invitations", async () => {
    await invite(api, globex, 'globex-only@example.com');
    const emails = (await openInvitations(acme)).map((i) => i.Email);
    expect(emails).not.toContain('globex-only@example.com');
  });

  it.each(['skip=-1', 'take=0', 'take=1001'])('answers 400 for %s', async (query) => {
    const response = await api.call({ url: `${INVITATIONS}?${query}`, tenant: acme });
    expect(response.statusCode).toBe(400);
    errorBody(response);
  });
});

describe('GET /management/security/members/invitations/{id}', () => {
  it('answers the invitation', async () => {
    const created = await invite(api, acme, 'fetch@acme.example');
    const response = await api.call({ url: `${INVITATIONS}/${created.Id}`, tenant: acme });
    expect(response.statusCode).toBe(200);
    // The same invitation, without the link and EmailSent that only the POST answered.
    const { InvitationLink: _link, EmailSent: _sent, ...invitation } = created;
    expect(response.json()).toEqual(invitation);
  });

  it("answers 404 for an unknown id and another tenant's invitation, 400 for a non-uuid", async () => {
    const theirs = await invite(api, globex, 'theirs-get@example.com');
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.Id]) {
      const response = await api.call({ url: `${INVITATIONS}/${id}`, tenant: acme });
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).Code).toBe('NotFound');
    }
    expect((await api.call({ url: `${INVITATIONS}/42`, tenant: acme })).statusCode).toBe(400);
  });
});

describe('DELETE /management/security/members/invitations/{id}', () => {
  it('revokes the invitation: 204, its link stops working, 404 afterwards', async () => {
    const created = await invite(api, acme, 'revoke@acme.example');
    const link = await invitationLink(api, acme, 'revoke@acme.example');
    const response = await api.call({
      method: 'DELETE',
      url: `${INVITATIONS}/${created.Id}`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(204);
    const page = await openInvitation(api, acme, tokenOf(link));
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('not valid any more');
    const again = await api.call({
      method: 'DELETE',
      url: `${INVITATIONS}/${created.Id}`,
      tenant: acme,
    });
    expect(again.statusCode).toBe(404);
    // The address may be invited again.
    await invite(api, acme, 'revoke@acme.example');
  });

  it("answers 404 for another tenant's invitation and leaves it open", async () => {
    const theirs = await invite(api, globex, 'theirs-delete@example.com');
    const response = await api.call({
      method: 'DELETE',
      url: `${INVITATIONS}/${theirs.Id}`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(404);
    const link = await invitationLink(api, globex, 'theirs-delete@example.com');
    expect((await openInvitation(api, globex, tokenOf(link))).statusCode).toBe(200);
  });
});

describe('POST /management/security/members/invitations/{id}/resend', () => {
  it('sends a new e-mail with a new link that expires 7 days from now; the old link stops', async () => {
    const created = await invite(api, acme, 'resend@acme.example');
    const oldLink = await invitationLink(api, acme, 'resend@acme.example');
    await expire(acme, 'resend@acme.example');
    const response = await api.call({
      method: 'POST',
      url: `${INVITATIONS}/${created.Id}/resend`,
      tenant: acme,
    });
    expect(response.statusCode, response.body).toBe(200);
    const resent = response.json<InvitationJson>();
    expect(resent).toMatchObject({ Id: created.Id, IsExpired: false });
    expect(Date.parse(resent.ExpirationDate)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await invitationMails(api, acme, 'resend@acme.example')).toHaveLength(2);
    const newLink = await invitationLink(api, acme, 'resend@acme.example');
    expect(tokenOf(newLink)).not.toBe(tokenOf(oldLink));
    expect(resent.InvitationLink).toBe(newLink.href);
    expect(resent.EmailSent).toBe(false);
    expect((await openInvitation(api, acme, tokenOf(oldLink))).statusCode).toBe(404);
    expect((await openInvitation(api, acme, tokenOf(newLink))).statusCode).toBe(200);
  });

  it('answers 409 AlreadyMember when the address has become a member meanwhile', async () => {
    const created = await invite(api, acme, 'meanwhile@acme.example');
    await createMember(api, acme, 'meanwhile@acme.example', ['analyst']);
    const response = await api.call({
      method: 'POST',
      url: `${INVITATIONS}/${created.Id}/resend`,
      tenant: acme,
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).Code).toBe('AlreadyMember');
  });

  it("answers 404 for an unknown id and another tenant's invitation", async () => {
    const theirs = await invite(api, globex, 'theirs-resend@example.com');
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.Id]) {
      const response = await api.call({
        method: 'POST',
        url: `${INVITATIONS}/${id}/resend`,
        tenant: acme,
      });
      expect(response.statusCode).toBe(404);
    }
    expect(await invitationMails(api, globex, 'theirs-resend@example.com')).toHaveLength(1);
  });
});

describe('GET /oauth/invitation (the invitation page)', () => {
  it('answers the form: the address offered as username, the roles, no script', async () => {
    await invite(api, acme, 'page@acme.example', ['catalog-editor'], { Name: 'Paige' });
    const link = await invitationLink(api, acme, 'page@acme.example');
    const page = await openInvitation(api, acme, tokenOf(link));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Join acme');
    expect(page.body).toContain('Catalog editor');
    expect(page.body).toMatch(/id="name"[^>]*value="Paige"/);
    expect(page.body).toMatch(/id="username"[^>]*value="page@acme.example"/);
    expect(page.body).not.toContain('<script');
  });

  it('answers a 404 page for an unknown or missing token and a 410 page for an expired one', async () => {
    expect((await openInvitation(api, acme, 'no-such-token')).statusCode).toBe(404);
    const missing = await api.app.inject({
      method: 'GET',
      url: '/oauth/invitation',
      headers: { host: acme.host, accept: 'text/html' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    await invite(api, acme, 'expired@acme.example');
    const link = await invitationLink(api, acme, 'expired@acme.example');
    await expire(acme, 'expired@acme.example');
    const page = await openInvitation(api, acme, tokenOf(link));
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expired');
  });
});

describe('POST /oauth/invitation (accepting)', () => {
  it('makes the member with the roles and the chosen name, username and password, once', async () => {
    await invite(api, acme, 'accept@acme.example', ['catalog-editor', 'analyst']);
    const link = await invitationLink(api, acme, 'accept@acme.example');
    const accepted = await acceptInvitation(api, acme, accepting(tokenOf(link), 'Ivy.New'));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.body).toContain('ivy.new');
    expect(accepted.body).toContain('href="/console/"');
    const member = (await members(acme)).find((m) => m.Username === 'ivy.new');
    expect(member).toMatchObject({
      Name: 'Ivy Invited',
      Email: 'accept@acme.example',
      Roles: [{ Id: 'catalog-editor' }, { Id: 'analyst' }],
    });
    // The invitee signs in with what it chose.
    const session = await signIn(api, acme, 'ivy.new');
    expect(session.access_token).toBeTruthy();
    // The invitation is spent: not listed, and its link is refused.
    expect((await openInvitations(acme)).map((i) => i.Email)).not.toContain('accept@acme.example');
    const again = await acceptInvitation(api, acme, accepting(tokenOf(link), 'someone-else'));
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('not valid any more');
    expect((await members(acme)).some((m) => m.Username === 'someone-else')).toBe(false);
  });

  it('accepts a link once when two browsers send it at the same time', async () => {
    await invite(api, acme, 'race@acme.example');
    const token = tokenOf(await invitationLink(api, acme, 'race@acme.example'));
    const answers = await Promise.all([
      acceptInvitation(api, acme, accepting(token, 'racer-one')),
      acceptInvitation(api, acme, accepting(token, 'racer-two')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
    const racers = (await members(acme)).filter((m) => m.Username.startsWith('racer-'));
    expect(racers).toHaveLength(1);
  });

  it.each([
    [
      'a weak password',
      { password: 'short1!Ab', password_repeat: 'short1!Ab' },
      'password',
      'at least 12 characters',
    ],
    [
      'passwords that differ',
      { password_repeat: `${GOOD_PASSWORD}x` },
      'password_repeat',
      'The two passwords differ',
    ],
    [
      'a username outside the rules',
      { username: 'no spaces allowed' },
      'username',
      '3 to 64 characters',
    ],
    ['a blank name', { name: '   ' }, 'name', 'Enter your name'],
    ['no password', { password: '', password_repeat: '' }, 'password', 'Choose a password'],
  ])(
    'answers the form again (400) with the error under the field for %s',
    async (_case, fields, field, text) => {
      const email = `bad-${field}-${_case.length}@acme.example`;
      await invite(api, acme, email);
      const token = tokenOf(await invitationLink(api, acme, email));
      const page = await acceptInvitation(api, acme, accepting(token, `user-${field}`, fields));
      expect(page.statusCode, page.body).toBe(400);
      expect(page.body).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      const error = new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(
        page.body,
      );
      expect(error?.[1]).toContain(text);
      // The link still works: nothing was spent.
      expect((await openInvitation(api, acme, token)).statusCode).toBe(200);
    },
  );

  it('keeps the chosen password when only the second one differs, and lists the error on top', async () => {
    await invite(api, acme, 'differ@acme.example');
    const token = tokenOf(await invitationLink(api, acme, 'differ@acme.example'));
    const page = await acceptInvitation(
      api,
      acme,
      accepting(token, 'differ', { password_repeat: `${GOOD_PASSWORD}x` }),
    );
    expect(page.statusCode).toBe(400);
    expect(page.body).toMatch(new RegExp(`id="password"[^>]*value="${GOOD_PASSWORD}"`));
    expect(page.body).not.toMatch(/id="password_repeat"[^>]*value=/);
    expect(page.headers['cache-control']).toContain('no-store');
    // Above the form, as a link to the field, and between the field's label and the field.
    expect(page.body).toMatch(
      /role="alert">[\s\S]*<a href="#password_repeat">Password again: The two passwords differ/,
    );
    expect(page.body).toMatch(
      /<label for="password_repeat">[^<]*<\/label>\s*<p class="field-error" id="password_repeat-error">/,
    );
  });

  it('answers the form again (409) when the username is taken', async () => {
    await createMember(api, acme, 'taken', ['analyst']);
    await invite(api, acme, 'taken@acme.example');
    const token = tokenOf(await invitationLink(api, acme, 'taken@acme.example'));
    const page = await acceptInvitation(api, acme, accepting(token, 'TAKEN'));
    expect(page.statusCode).toBe(409);
    expect(page.body).toContain('The username &quot;taken&quot; is taken');
    expect((await openInvitation(api, acme, token)).statusCode).toBe(200);
  });

  it('answers a 410 page for an expired link and makes no member', async () => {
    await invite(api, acme, 'too-late@acme.example');
    const token = tokenOf(await invitationLink(api, acme, 'too-late@acme.example'));
    await expire(acme, 'too-late@acme.example');
    const page = await acceptInvitation(api, acme, accepting(token, 'too-late'));
    expect(page.statusCode).toBe(410);
    expect((await members(acme)).some((m) => m.Username === 'too-late')).toBe(false);
  });

  it("refuses another tenant's link on this tenant's host", async () => {
    await invite(api, globex, 'cross@example.com');
    const token = tokenOf(await invitationLink(api, globex, 'cross@example.com'));
    const page = await acceptInvitation(api, acme, accepting(token, 'cross-tenant'));
    expect(page.statusCode).toBe(404);
    expect((await members(acme)).some((m) => m.Username === 'cross-tenant')).toBe(false);
    expect((await members(globex)).some((m) => m.Username === 'cross-tenant')).toBe(false);
  });

  it('answers a 400 page for a form that is not form-encoded', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/oauth/invitation',
      headers: { host: acme.host, 'content-type': 'application/json', accept: 'text/html' },
      payload: JSON.stringify({ token: 'x' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('pruning (the members.prune job)', () => {
  it('drops invitations expired more than 30 days ago and keeps the others listed', async () => {
    const tenant = await api.createTenant('pruning');
    await invite(api, tenant, 'long-gone@pruning.example');
    await invite(api, tenant, 'just-expired@pruning.example');
    await invite(api, tenant, 'open@pruning.example');
    const tenantId = (await api.services.tenants.findByName('pruning'))!.id;
    await api.database.handle.query(
      `update member_invitations set expires_at = now() - interval '31 days'
        where tenant_id = $1 and email = 'long-gone@pruning.example'`,
      [tenantId],
    );
    await expire(tenant, 'just-expired@pruning.example');
    expect(await api.services.members.invitations.prune()).toBeGreaterThanOrEqual(1);
    expect((await openInvitations(tenant)).map((i) => i.Email)).toEqual([
      'just-expired@pruning.example',
      'open@pruning.example',
    ]);
  });
});
