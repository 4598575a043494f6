// The Members, Apps and Integration endpoint pages in a browser, at laptop and phone sizes:
// inviting a member by e-mail (the e-mail read from the outbox), the invitee accepting in the
// browser and signing in, resending and revoking; field errors in plain words next to their
// fields; an app name used twice warned of next to the name, then created anyway once confirmed;
// secrets and subscription keys shown once and never again; what an integration endpoint is; the focus after each action; axe, no sideways scroll
// and a screenshot of each page (checkPage). One browser for the file.
import type { Browser, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import {
  GOOD_PASSWORD,
  createMember,
  invitationLink,
  invitationMails,
  invite,
  openInvitation,
} from '../members/members-fixtures.ts';
import { ControlledProvisioner } from '../integration/integration-fixtures.ts';
import {
  expectAccessible,
  screenshotOnFailure,
  startListeningApi,
} from './console-browser-fixtures.ts';
import {
  PAGE_SHOWS,
  VIEWPORT_NAMES,
  checkPage,
  expectFocused,
  expectInView,
  expectNoHorizontalScroll,
  openConsole,
  savePageScreenshot,
  type ConsoleSession,
  type ViewportName,
} from './console-session-fixtures.ts';

const INVITEE_PASSWORD = 'amber-Canyon-kettle-38';
/** Provisioning waits until the test lets it go on (the status is seen in creation first). */
const provisioner = new ControlledProvisioner();

let api: TestApi;
let port: number;
let browser: Browser;

beforeAll(async () => {
  ({ api, port } = await startListeningApi({ JOB_POLLING_INTERVAL_SECONDS: '1' }, { provisioner }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function apiGet<T>(tenant: TestTenant, url: string): Promise<T> {
  const response = await api.call({ url, tenant });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

describe.each(VIEWPORT_NAMES)(
  'members, apps and endpoint pages (%s)',
  { timeout: 90_000 },
  (viewport: ViewportName) => {
    let tenant: TestTenant;
    let base: string;
    let owner: ConsoleSession;
    const email = `ana.${viewport}@shop.example`;

    beforeAll(async () => {
      tenant = await api.createTenant(`members-${viewport}`);
      base = `http://${tenant.host}:${port}`;
      await createMember(api, tenant, 'olivia', ['owner']);
      owner = await openConsole(browser, base, viewport);
      await owner.signIn('olivia', GOOD_PASSWORD);
    });
    afterEach(async (test) => {
      if (test.task.result?.state === 'fail')
        await screenshotOnFailure(owner?.page, `${viewport} ${test.task.name}`);
    });
    // No session.close(): closing a browser context ends the whole single-process Chromium that
    // @sparticuz/chromium ships (where /usr/bin/chromium is missing); the browser's close at the
    // end of the file closes them all.

    const section = (name: string): Locator =>
      owner.page.getByRole('region', { name, exact: true });

    it('invites a member by e-mail; the invitee accepts in the browser and signs in', async () => {
      const { page } = owner;
      await owner.openPage('Members');
      await section('Invite a member').waitFor();
      await checkPage(owner, 'Members');

      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Name (optional)').fill('Ana Lyst');
      await page.getByRole('checkbox', { name: /^Analyst/ }).check();
      await page.getByRole('button', { name: 'Send invitation' }).click();
      // This server has no SMTP_URL: the owner is told, and given the link (once) to hand over.
      const notice = section(`No e-mail was sent to ${email}`);
      await notice.waitFor();
      await expectFocused(notice, 'the invitation link notice');
      await notice.getByText('E-mail is not set up on this server').waitFor();
      await notice.getByText(/^It works once, until /).waitFor();
      await checkPage(owner, 'Members, invitation link');
      const shown = await notice.locator('[data-secret]').textContent();
      await notice.getByRole('button', { name: 'Done' }).click();
      expect(await notice.count()).toBe(0);
      const row = section('Pending invitations').getByRole('row', { name: new RegExp(email) });
      await expectFocused(row, 'the new invitation’s row');

      // The e-mail is in the outbox, with the same link.
      const [mail] = await invitationMails(api, tenant, email);
      expect(mail!.body).toContain('Analyst');
      const link = await invitationLink(api, tenant, email);
      expect(shown).toBe(link.href);

      // The invitee opens the link in a browser of its own, chooses a username and password.
      const invitee = await openConsole(browser, base, viewport);
      await invitee.page.goto(link.toString());
      await invitee.page.getByRole('heading', { name: `Join ${tenant.name}` }).waitFor();
      expect(await invitee.page.getByLabel('Your name').inputValue()).toBe('Ana Lyst');
      expect(await invitee.page.getByLabel('Username').inputValue()).toBe(email);
      await expectAccessible(invitee.page, `the invitation page (${viewport})`);
      await expectNoHorizontalScroll(invitee.page, 'the invitation page');
      await savePageScreenshot(invitee.page, 'Invitation', viewport);
      await invitee.page.getByLabel('Username').fill('ana');
      // Two passwords that differ: said at the top and right above the field, which takes the
      // focus and is in view; the first password stays, only the second is typed again.
      await invitee.page.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
      await invitee.page.getByLabel('Password again').fill(`${INVITEE_PASSWORD}!`);
      await invitee.page.getByRole('button', { name: 'Create my account' }).click();
      const mismatch = invitee.page.locator('#password_repeat-error');
      await mismatch.waitFor();
      expect(await mismatch.textContent()).toContain('The two passwords differ.');
      await expectFocused(invitee.page.getByLabel('Password again'), 'the field in error');
      await expectInView(mismatch, 'the error of the field in error');
      await invitee.page
        .getByRole('alert')
        .getByRole('link', { name: /Password again/ })
        .waitFor();
      expect(await invitee.page.getByLabel('Password', { exact: true }).inputValue()).toBe(
        INVITEE_PASSWORD,
      );
      await invitee.page.getByLabel('Password again').fill(INVITEE_PASSWORD);
      await invitee.page.getByRole('button', { name: 'Create my account' }).click();
      await invitee.page.getByText('Your account ana is ready.').waitFor();
      await expectAccessible(invitee.page, `the invitation accepted page (${viewport})`);
      await invitee.page.getByRole('link', { name: 'Sign in to the console' }).click();
      await invitee.page.waitForURL((url) => url.pathname === '/oauth/authorize');
      await invitee.page.getByLabel('Username').fill('ana');
      await invitee.page.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
      await invitee.page.getByRole('button', { name: 'Sign in' }).click();
      await invitee.page.waitForURL((url) => url.pathname.startsWith('/console/'));
      await expect
        .poll(() => invitee.page.locator('header .who').textContent(), PAGE_SHOWS)
        .toBe('ana');
      // The link was single-use.
      expect((await openInvitation(api, tenant, link.searchParams.get('token')!)).statusCode).toBe(
        404,
      );
      expect(invitee.pageErrors).toEqual([]);

      // The owner sees the member, no longer the invitation.
      await owner.openPage('Apps');
      await owner.openPage('Members');
      await page
        .getByRole('cell', { name: /^ana\b/ })
        .first()
        .waitFor();
      await section('Pending invitations').getByText('No pending invitations.').waitFor();
      const members = await apiGet<{ Results: { Username: string; Roles: { Id: string }[] }[] }>(
        tenant,
        '/management/security/members',
      );
      expect(members.Results.find((m) => m.Username === 'ana')?.Roles).toMatchObject([
        { Id: 'analyst' },
      ]);
    });

    it('says "Choose at least one role." next to the roles, and a bad address next to its field', async () => {
      const { page } = owner;
      await page.getByLabel('E-mail address').fill(`nobody.${viewport}@shop.example`);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      const roles = section('Invite a member').getByRole('group', { name: 'Roles' });
      await roles.getByText('Choose at least one role.').waitFor();
      await expectFocused(roles.getByRole('checkbox').first(), 'the first role');
      expect(await page.getByText('NOT have fewer').count()).toBe(0);
      // Choosing a role takes the message away.
      await page.getByRole('checkbox', { name: /^Analyst/ }).check();
      expect(await roles.getByText('Choose at least one role.').count()).toBe(0);

      await page.getByLabel('E-mail address').fill('not an address');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page
        .getByText('E-mail address must be an e-mail address, like name@example.com.')
        .first()
        .waitFor();
      await expectFocused(page.getByLabel('E-mail address'), 'the e-mail field');

      // An address that is already a member: said next to the address.
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`${email} is already a member of this tenant.`).first().waitFor();
      await expectFocused(page.getByLabel('E-mail address'), 'the e-mail field');
      expect(await invitationMails(api, tenant, `nobody.${viewport}@shop.example`)).toEqual([]);
    });

    it('copies a new link of a pending invitation (the earlier link stops working)', async () => {
      const { page } = owner;
      const address = `copy.${viewport}@shop.example`;
      await invite(api, tenant, address, ['analyst']);
      const first = await invitationLink(api, tenant, address);
      await owner.openPage('Apps');
      await owner.openPage('Members');
      await section('Pending invitations')
        .getByRole('button', { name: `Copy invitation link for ${address}` })
        .click();
      const notice = section(`No e-mail was sent to ${address}`);
      await expectFocused(notice, 'the new link');
      const shown = await notice.locator('[data-secret]').textContent();
      const second = await invitationLink(api, tenant, address);
      expect(shown).toBe(second.href);
      expect(second.href).not.toBe(first.href);
      expect((await openInvitation(api, tenant, first.searchParams.get('token')!)).statusCode).toBe(
        404,
      );
      await notice.getByRole('button', { name: 'Done' }).click();
      // Shown once: gone after Done, and not shown again on coming back.
      await owner.openPage('Apps');
      await owner.openPage('Members');
      await section('Pending invitations').waitFor();
      expect(await page.getByText(second.href).count()).toBe(0);
    });

    it('sends a pending invitation again and revokes it', async () => {
      const { page } = owner;
      const address = `pending.${viewport}@shop.example`;
      await invite(api, tenant, address, ['device-manager']);
      await owner.openPage('Apps');
      await owner.openPage('Members');
      const pending = section('Pending invitations');
      const first = await invitationLink(api, tenant, address);

      // No e-mail leaves this server: resending shows the new link instead of saying "sent".
      await pending.getByRole('button', { name: `Resend to ${address}` }).click();
      const notice = section(`No e-mail was sent to ${address}`);
      await expectFocused(notice, 'the new link');
      await notice.getByRole('button', { name: 'Done' }).click();
      expect(await invitationMails(api, tenant, address)).toHaveLength(2);
      expect((await openInvitation(api, tenant, first.searchParams.get('token')!)).statusCode).toBe(
        404,
      );
      const second = await invitationLink(api, tenant, address);

      await pending.getByRole('button', { name: `Revoke the invitation to ${address}` }).click();
      await page.getByText(`Invitation to ${address} revoked`).waitFor();
      await expectFocused(
        page.locator('.action-result').filter({ hasText: 'revoked' }),
        'the result of revoking',
      );
      await expect
        .poll(() => pending.getByRole('row', { name: new RegExp(address) }).count(), PAGE_SHOWS)
        .toBe(0);
      expect(
        (await openInvitation(api, tenant, second.searchParams.get('token')!)).statusCode,
      ).toBe(404);
      expect(owner.pageErrors).toEqual([]);
    });

    it("changes a member's roles (none chosen: said next to the roles) and removes a member", async () => {
      const { page } = owner;
      await createMember(api, tenant, 'max', ['analyst']);
      await owner.openPage('Apps');
      await owner.openPage('Members');
      await page.getByRole('button', { name: 'Change roles of max' }).click();
      const editor = section('Roles of max');
      await expectFocused(editor.getByRole('checkbox').first(), 'the first role of the form');
      await editor.getByRole('checkbox', { name: /^Analyst/ }).uncheck();
      await editor.getByRole('button', { name: 'Save roles' }).click();
      await editor
        .getByRole('group', { name: 'Roles of max' })
        .getByText('Choose at least one role.')
        .waitFor();
      await expectFocused(editor.getByRole('checkbox').first(), 'the first role');
      await editor.getByRole('checkbox', { name: /^Device manager/ }).check();
      await editor.getByRole('button', { name: 'Save roles' }).click();
      await page.getByText('Roles of max saved.').waitFor();
      await expectFocused(
        page.locator('.action-result').filter({ hasText: 'saved' }),
        'the result',
      );
      const saved = await apiGet<{ Results: { Username: string; Roles: { Id: string }[] }[] }>(
        tenant,
        '/management/security/members',
      );
      expect(saved.Results.find((m) => m.Username === 'max')?.Roles).toMatchObject([
        { Id: 'device-manager' },
      ]);

      await page.getByRole('button', { name: 'Remove max' }).click();
      await page.getByText('max removed.').waitFor();
      await expectFocused(
        page.locator('.action-result').filter({ hasText: 'removed' }),
        'the result',
      );
      await expect
        .poll(() => page.getByRole('cell', { name: 'max', exact: true }).count(), PAGE_SHOWS)
        .toBe(0);
      expect(owner.pageErrors).toEqual([]);
    });

    it('warns of an app name used twice next to the name and creates it anyway once confirmed; a dismissed secret is gone for good', async () => {
      const { page } = owner;
      await owner.openPage('Apps');
      await page.getByText('A secret is shown once').waitFor();
      await checkPage(owner, 'Apps');

      await page.getByLabel('App name').fill('Till');
      await page.getByRole('button', { name: 'Create app' }).click();
      const notice = page.getByRole('region', { name: 'Secret of Till' });
      await notice.waitFor();
      await expectFocused(notice, 'the secret notice');
      await notice.getByText('it cannot be shown again').waitFor();
      const secret = (await page.locator('[data-secret]').textContent())!;
      expect(secret).toMatch(/^[\w-]{43}$/);
      await notice.getByRole('button', { name: 'Done' }).click();
      expect(await page.locator('[data-secret]').count()).toBe(0);
      const row = page.getByRole('row', { name: /^Till/ });
      await expectFocused(row, 'the app’s row');
      // No way back to it: no control shows it, not even after leaving the page and coming back.
      expect(await page.getByRole('button', { name: /show/i }).count()).toBe(0);
      await owner.openPage('Members');
      await owner.openPage('Apps');
      await row.waitFor();
      expect(await page.getByText(secret).count()).toBe(0);
      await page.goBack();
      await page.goForward();
      await row.waitFor();
      expect(await page.getByText(secret).count()).toBe(0);

      // The same name again, in other letter case and with spaces: the page warns next to the
      // name, creates nothing, and the focus goes to the warning's button.
      const warning = `An app named “Till” already exists. Apps are told apart by name in lists; choose another name, or create it anyway.`;
      const anyway = page.getByRole('button', { name: 'Create anyway' });
      await page.getByLabel('App name').fill(' till ');
      await page.getByRole('button', { name: 'Create app' }).click();
      await page.getByText(warning).waitFor();
      await expectFocused(anyway, 'the warning’s Create anyway button');
      const namedTill = async () =>
        (
          await apiGet<{ Results: { Name: string }[] }>(tenant, '/management/oauth/apps')
        ).Results.filter((a) => a.Name.trim().toLowerCase() === 'till');
      expect(await namedTill()).toHaveLength(1);
      await checkPage(owner, 'Apps, name warning');
      // Changing the name takes the warning away.
      await page.getByLabel('App name').fill('Till 2');
      expect(await page.getByText(warning).count()).toBe(0);
      expect(await anyway.count()).toBe(0);

      // Back to the taken name: warned again, then created anyway after confirming.
      await page.getByLabel('App name').fill('till');
      await page.getByRole('button', { name: 'Create app' }).click();
      await page.getByText(warning).waitFor();
      await expectFocused(anyway, 'the warning’s Create anyway button');
      await anyway.click();
      const second = page.getByRole('region', { name: 'Secret of till', exact: true });
      await second.waitFor();
      await expectFocused(second, 'the secret notice of the second app');
      expect(await page.getByText(warning).count()).toBe(0);
      await second.getByRole('button', { name: 'Done' }).click();
      await expectFocused(page.getByRole('row', { name: /^till/ }), 'the second app’s row');
      expect((await namedTill()).map((a) => a.Name).sort()).toEqual(['Till', 'till']);

      for (const name of ['Till', 'till']) {
        await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
        await page.getByText(`App ${name} deleted.`, { exact: true }).waitFor();
        await expectFocused(
          page.locator('.action-result').filter({ hasText: `App ${name} deleted.` }),
          'the result',
        );
      }
      expect(await namedTill()).toEqual([]);
      expect(owner.pageErrors).toEqual([]);
    });

    it('explains the integration endpoint; shows its key once when it goes live, then never again', async () => {
      const { page } = owner;
      await owner.openPage('Integration endpoint');
      await page.getByRole('heading', { name: 'What is an integration endpoint?' }).waitFor();
      await page.getByText('Create one when such a system is to connect').waitFor();
      await checkPage(owner, 'Integration endpoint');

      // A service name outside the rules: said next to the field, which takes the focus.
      await page.getByLabel('Service name').fill('9-lives');
      await page.getByLabel('Admin e-mail').fill('ops@shop.example');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByText('The service name must be 2 to 50 letters').first().waitFor();
      await expectFocused(page.getByLabel('Service name'), 'the service name field');

      await page.getByLabel('Service name').fill(`shop-${viewport}`);
      const provisioned = provisioner.hold(`shop-${viewport}`);
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await expectFocused(page.locator('[data-status]'), 'the endpoint’s status');
      expect(await page.locator('[data-status]').textContent()).toBe('Creation in progress');
      provisioned();
      await expect
        .poll(() => page.locator('[data-status]').textContent(), { timeout: 30_000, interval: 250 })
        .toBe('Live');
      // Gone live while the page followed it: its key, shown this once.
      const notice = page.getByRole('region', { name: 'Subscription key' });
      await notice.waitFor(PAGE_SHOWS);
      await expectFocused(notice, 'the key notice');
      const key = await apiGet<{ SubscriptionKey: string }>(
        tenant,
        '/management/integration/endpoint/subscriptionkey',
      );
      expect(await page.locator('[data-secret]').textContent()).toBe(key.SubscriptionKey);
      await checkPage(owner, 'Integration endpoint, key shown');
      await notice.getByRole('button', { name: 'Done' }).click();
      expect(await page.locator('[data-secret]').count()).toBe(0);
      await expectFocused(
        page.getByRole('heading', { name: /^Your endpoint/ }),
        'the endpoint heading',
      );
      expect(await page.getByRole('button', { name: /show/i }).count()).toBe(0);
      await owner.openPage('Apps');
      await owner.openPage('Integration endpoint');
      await page.locator('[data-status]').waitFor();
      expect(await page.locator('[data-secret]').count()).toBe(0);
      expect(await page.getByText(key.SubscriptionKey).count()).toBe(0);

      // Only a new key can be had; the old one stops.
      await page.getByRole('button', { name: 'Issue a new subscription key' }).click();
      await notice.waitFor();
      await expectFocused(notice, 'the new key notice');
      const fresh = (await page.locator('[data-secret]').textContent())!;
      expect(fresh).not.toBe(key.SubscriptionKey);
      const now = await apiGet<{ SubscriptionKey: string }>(
        tenant,
        '/management/integration/endpoint/subscriptionkey',
      );
      expect(now.SubscriptionKey).toBe(fresh);
      await notice.getByRole('button', { name: 'Done' }).click();
      expect(owner.pageErrors).toEqual([]);
    });
  },
);
