// The catalog's list pages (Brands, Tags, Attribute types, Price types) and the category tree in a
// browser, at laptop and phone sizes: renaming in place (Edit opens the row and sends nothing,
// Save sends one PUT, Cancel and Escape change nothing), field errors in plain words next to the
// field and gone when it changes, duplicates refused with the sentence next to the field, each
// category's parent shown from the tree's nesting, re-parenting by keyboard (choose, then Move)
// and by drag and drop; the focus after every action; axe, sideways scroll and a screenshot of
// every page (checkPage). Each size signs in to a tenant of its own.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.ts';
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import { createMember, GOOD_PASSWORD } from '../members/members-fixtures.ts';
import { screenshotOnFailure, startListeningApi } from './console-browser-fixtures.ts';
import {
  checkPage,
  expectFocused,
  openConsole,
  PAGE_SHOWS,
  VIEWPORT_NAMES,
  type ConsoleSession,
} from './console-session-fixtures.ts';

let api: TestApi;
let port: number;
let browser: Browser;

beforeAll(async () => {
  ({ api, port } = await startListeningApi());
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const CATALOG = '/private/catalog';

describe.each(VIEWPORT_NAMES)(
  'catalog lists and categories at %s size',
  { timeout: 90_000 },
  (viewport) => {
    let tenant: TestTenant;
    let session: ConsoleSession;
    let page: Page;
    /** The catalog writes the page sent ("PUT /private/catalog/brand/3"). */
    const writes: string[] = [];

    beforeAll(async () => {
      tenant = await api.createTenant(`lists-${viewport}`);
      await createMember(api, tenant, 'olivia', ['owner']);
      session = await openConsole(browser, `http://${tenant.host}:${port}`, viewport);
      page = session.page;
      // A step that cannot happen fails with what it waited for, before the test's own deadline.
      page.setDefaultTimeout(20_000);
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (request.method() !== 'GET' && path.startsWith(CATALOG))
          writes.push(`${request.method()} ${path}`);
      });
      await session.signIn('olivia', GOOD_PASSWORD);
    }, 120_000);
    afterEach(async (test) => {
      if (test.task.result?.state === 'fail')
        await screenshotOnFailure(page, `${viewport}-${test.task.name}`);
    });
    // No session.close(): closing a context stops the bundled single-process Chromium (the
    // browser of machines without /usr/bin/chromium); the browser's close ends both sessions.

    async function apiCall<T>(method: string, url: string, body?: unknown): Promise<T> {
      const response = await api.call({
        method: method,
        url: `${CATALOG}${url}`,
        tenant,
        body,
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response.json<T>();
    }
    /** The error shown under a field (Field's .field-error), found by the field's label. */
    const errorOf = (field: Locator) =>
      field.locator(
        'xpath=ancestor::div[contains(concat(" ", @class, " "), " field ")][1]//p[@class="field-error"]',
      );
    const alert = () => page.getByRole('alert');
    const status = () => page.getByRole('status').filter({ hasText: /\S/ });

    const LISTS = [
      {
        page: 'Brands',
        singular: 'brand',
        url: '/brand',
        create: { Name: 'Acme Shoes' },
        tooLong: { name: 'Name', limit: 256 },
        fields: [{ name: 'Name', label: 'Name', renamed: 'Acme Footwear' }],
      },
      {
        page: 'Tags',
        singular: 'tag',
        url: '/tag',
        create: { Name: 'summer', Description: 'Hot days' },
        tooLong: { name: 'Name', limit: 256 },
        fields: [
          { name: 'Name', label: 'Name', renamed: 'summer sale' },
          { name: 'Description', label: 'Description', renamed: 'Hot days, low prices' },
        ],
      },
      {
        page: 'Attribute types',
        singular: 'attribute type',
        url: '/dynamicattributetypes',
        create: { Description: 'Colour' },
        tooLong: { name: 'Description', limit: 256 },
        fields: [{ name: 'Description', label: 'Description', renamed: 'Colour family' }],
      },
      {
        page: 'Price types',
        singular: 'price type',
        url: '/pricetype',
        create: { Description: 'Euro', PriceTypeSymbol: 'EUR' },
        tooLong: { name: 'PriceTypeSymbol', limit: 16 },
        fields: [
          { name: 'Description', label: 'Description', renamed: 'Euro (retail)' },
          { name: 'PriceTypeSymbol', label: 'Symbol', renamed: 'EUR-R' },
        ],
      },
    ] as const;

    describe.each(LISTS)('the $page page', (list) => {
      let id: number;
      const first = list.fields[0];
      const original = (list.create as Record<string, string>)[first.name]!;
      const renamed = first.renamed;

      it('renames in place: Edit opens the row and sends nothing, Save sends one PUT', async () => {
        writes.length = 0;
        id = (await apiCall<{ Id: number }>('POST', list.url, list.create)).Id;
        await session.openPage(list.page);
        const edit = page.getByRole('button', { name: `Edit ${original}`, exact: true });
        await edit.click();
        const firstField = page.getByLabel(`${first.label} of ${list.singular} ${id}`, {
          exact: true,
        });
        await expectFocused(firstField, `the first field of the edit row of ${list.page}`);
        // The row shows the current values, and nothing was sent by opening it.
        for (const field of list.fields)
          expect(
            await page
              .getByLabel(`${field.label} of ${list.singular} ${id}`, { exact: true })
              .inputValue(),
          ).toBe((list.create as Record<string, string>)[field.name]);
        expect(writes.filter((w) => w.startsWith('PUT'))).toEqual([]);

        for (const field of list.fields)
          await page
            .getByLabel(`${field.label} of ${list.singular} ${id}`, { exact: true })
            .fill(field.renamed);
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        const saved = page.getByRole('button', { name: `Edit ${renamed}`, exact: true });
        await expectFocused(saved, `the Edit button of the saved ${list.singular}`);
        await expect.poll(() => status().textContent(), PAGE_SHOWS).toContain('Saved');
        const fetched = await apiCall<Record<string, string>>('GET', `${list.url}/${id}`);
        for (const field of list.fields) expect(fetched[field.name]).toBe(field.renamed);
        expect(writes.filter((w) => w.startsWith('PUT'))).toEqual([
          `PUT ${CATALOG}${list.url}/${id}`,
        ]);
        writes.length = 0;
      });

      it('Cancel and Escape close the row unchanged, and the focus goes back to Edit', async () => {
        const edit = page.getByRole('button', { name: `Edit ${renamed}`, exact: true });
        const field = page.getByLabel(`${first.label} of ${list.singular} ${id}`, { exact: true });
        await edit.click();
        await expectFocused(field, 'the first field');
        await field.fill('Not kept');
        await page.getByRole('button', { name: 'Cancel', exact: true }).click();
        await expectFocused(edit, 'the Edit button after Cancel');
        await edit.press('Enter');
        await expectFocused(field, 'the first field');
        expect(await field.inputValue()).toBe(renamed);
        await field.fill('Not kept either');
        await field.press('Escape');
        await expectFocused(edit, 'the Edit button after Escape');
        expect(await field.count()).toBe(0);
        expect(writes).toEqual([]);
        const fetched = await apiCall<Record<string, string>>('GET', `${list.url}/${id}`);
        expect(fetched[first.name]).toBe(renamed);
      });

      it('creates with a field error shown next to the field, gone when it changes, then fixed', async () => {
        const form = page.getByRole('region', { name: `New ${list.singular}` });
        const fields = Object.fromEntries(
          list.fields.map((f) => [f.name, form.getByLabel(f.label, { exact: true })]),
        );
        // Too long for the API (a name 256 characters, a symbol 16).
        const values: Record<string, string> = Object.fromEntries(
          list.fields.map((f) => [
            f.name,
            `${f.renamed}${f.name === 'PriceTypeSymbol' ? '' : ' '}2`,
          ]),
        );
        const { name: badName, limit } = list.tooLong;
        const bad = fields[badName]!;
        const label = list.fields.find((f) => f.name === badName)!.label;
        for (const f of list.fields) await fields[f.name]!.fill(values[f.name]!);
        await bad.fill('x'.repeat(limit + 1));
        await form.getByRole('button', { name: `Create ${list.singular}` }).click();
        const sentence = `${label} can be at most ${limit} characters long.`;
        await expect.poll(() => errorOf(bad).textContent(), PAGE_SHOWS).toBe(sentence);
        await expectFocused(bad, 'the field with the error');
        expect(await bad.getAttribute('aria-invalid')).toBe('true');
        expect(await alert().textContent()).toBe(sentence);

        await bad.fill(values[badName]!);
        expect(await errorOf(bad).count()).toBe(0);
        expect(await alert().count()).toBe(0);
        await form.getByRole('button', { name: `Create ${list.singular}` }).click();
        const shown = values[first.name]!;
        const row = page.locator('tr[data-row]', { hasText: shown });
        await expectFocused(row, 'the new row');
        expect(await status().textContent()).toBe(`Created ${list.singular} “${shown}”.`);
      });

      it('refuses a duplicate with the sentence next to the field (and above it)', async () => {
        const form = page.getByRole('region', { name: `New ${list.singular}` });
        const identifying = list.fields.find(
          (f) => f.name !== 'Description' || list.fields.length === 1,
        )!;
        for (const f of list.fields)
          await form.getByLabel(f.label, { exact: true }).fill(`Another ${f.label}`.slice(0, 16));
        // The name (symbol) that identifies the renamed one, in another case.
        const field = form.getByLabel(identifying.label, { exact: true });
        await field.fill(identifying.renamed.toUpperCase());
        await form.getByRole('button', { name: `Create ${list.singular}` }).click();
        const refused = await api.call({
          method: 'POST',
          url: `${CATALOG}${list.url}`,
          tenant,
          body: {
            ...Object.fromEntries(
              list.fields.map((f) => [f.name, `Another ${f.label}`.slice(0, 16)]),
            ),
            [identifying.name]: identifying.renamed.toUpperCase(),
          },
        });
        expect(refused.statusCode).toBe(409);
        const sentence =
          list.page === 'Price types'
            ? 'A price type with this symbol already exists.'
            : refused.json<{ FriendlyDescription: string }>().FriendlyDescription;
        await expect.poll(() => errorOf(field).textContent(), PAGE_SHOWS).toBe(sentence);
        expect(await alert().textContent()).toBe(sentence);
        await expectFocused(field, 'the field of the duplicate');
        await field.fill('Something new');
        expect(await errorOf(field).count()).toBe(0);
      });

      it('refuses a duplicate in the edit row next to its field, and deletes with the focus on the list', async () => {
        const other = (list.create as Record<string, string>)[first.name]!;
        const otherId = (
          await apiCall<{ Id: number }>('POST', list.url, {
            ...list.create,
            ...(list.page === 'Price types' ? { PriceTypeSymbol: 'USD' } : {}),
            [first.name]: other,
          })
        ).Id;
        await page.reload();
        await page.getByRole('button', { name: `Edit ${other}`, exact: true }).click();
        const identifying = list.page === 'Price types' ? list.fields[1] : first;
        const field = page.getByLabel(`${identifying.label} of ${list.singular} ${otherId}`, {
          exact: true,
        });
        await field.fill(identifying.renamed);
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(() => errorOf(field).count(), PAGE_SHOWS).toBe(1);
        await expectFocused(field, 'the edit field of the duplicate');
        expect(await alert().count()).toBe(1);
        await page.getByRole('button', { name: 'Cancel', exact: true }).click();
        const deleteButton = page.getByRole('button', { name: `Delete ${other}`, exact: true });
        await deleteButton.click();
        await expectFocused(page.getByRole('group', { name: `${list.page} list` }), 'the list');
        await expect.poll(() => status().textContent(), PAGE_SHOWS).toContain('Deleted');
        expect(await deleteButton.count()).toBe(0);
        await checkPage(session, list.page);
      });
    });

    describe('the Categories page', () => {
      const ids: Record<string, number> = {};
      const node = (name: string) => page.locator(`[data-category="${name}"]`);
      const nameOf = (name: string) => page.locator(`[data-node="${ids[name]}"]`);
      const parentOf = (name: string) => page.getByLabel(`Parent of ${name}`, { exact: true });
      /** Opens a category's controls (its Parent list, Move, Edit, Delete): activate its name. */
      const openRow = async (name: string) => {
        const button = node(name).locator('[data-node]');
        if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
        await parentOf(name).waitFor();
      };
      const parentInApi = async (name: string) =>
        (await apiCall<{ ParentCategoryId: number | null }>('GET', `/category/${ids[name]}`))
          .ParentCategoryId;

      it("shows each category's parent in its list", async () => {
        const create = async (Name: string, parent?: string) =>
          (ids[Name] = (
            await apiCall<{ Id: number }>('POST', '/category', {
              Name,
              ParentCategoryId: parent ? ids[parent] : null,
            })
          ).Id);
        await create('Footwear');
        await create('Shoes', 'Footwear');
        await create('Running', 'Shoes');
        await create('Outdoor');
        await session.openPage('Categories');
        await node('Running').waitFor();
        // Only the chosen category shows its controls: the tree is its names.
        expect(await page.getByRole('button', { name: /^Move / }).count()).toBe(0);
        const parents: Record<string, string> = {
          Footwear: '',
          Shoes: String(ids.Footwear),
          Running: String(ids.Shoes),
          Outdoor: '',
        };
        for (const [name, parent] of Object.entries(parents)) {
          await openRow(name);
          expect(await parentOf(name).inputValue()).toBe(parent);
          expect(await page.getByRole('button', { name: /^Move / }).count()).toBe(1);
        }
        await openRow('Running');
        if (viewport === 'phone') {
          // Four categories, one open, in less than half a phone's screen.
          const tree = (await page.getByRole('group', { name: 'Category tree' }).boundingBox())!;
          expect(tree.height).toBeLessThan(844 / 2);
        }
        // What the list shows: the parent's path.
        expect(
          await parentOf('Running').evaluate(
            (select: { selectedOptions: ArrayLike<{ textContent: string | null }> }) =>
              select.selectedOptions[0]!.textContent,
          ),
        ).toBe('Footwear / Shoes');
      });

      it('re-parents by keyboard only when Move is pressed, and keeps the focus on the category', async () => {
        writes.length = 0;
        await openRow('Running');
        const list = parentOf('Running');
        await list.focus();
        // Its choices: the top, Footwear, Footwear / Shoes (its parent), Outdoor; never itself.
        await list.press('ArrowDown');
        expect(await list.inputValue()).toBe(String(ids.Outdoor));
        await expectFocused(list, 'the list after choosing');
        expect(writes).toEqual([]);
        expect(await parentInApi('Running')).toBe(ids.Shoes);

        await page.keyboard.press('Tab');
        const move = page.getByRole('button', { name: 'Move Running', exact: true });
        await expectFocused(move, 'the Move button');
        await page.keyboard.press('Enter');
        await expect.poll(() => parentInApi('Running'), PAGE_SHOWS).toBe(ids.Outdoor);
        await page.locator('[data-category="Outdoor"] + ul [data-category="Running"]').waitFor();
        await expectFocused(nameOf('Running'), 'the moved category');
        expect(await status().textContent()).toBe('Moved “Running” to Outdoor.');
        expect(await parentOf('Running').inputValue()).toBe(String(ids.Outdoor));
        expect(writes).toEqual([`PATCH ${CATALOG}/category/${ids.Running}`]);

        // To the top, with the list chosen by value, then Move.
        await parentOf('Running').selectOption('');
        await page.getByRole('button', { name: 'Move Running', exact: true }).click();
        await expect.poll(() => parentInApi('Running'), PAGE_SHOWS).toBeNull();
        await expectFocused(nameOf('Running'), 'the category moved to the top');
      });

      it('refuses a sibling of the same name, next to the Name field, and creates it elsewhere', async () => {
        const form = page.getByRole('region', { name: 'New category' });
        const name = form.getByLabel('Name', { exact: true });
        await name.fill('shoes');
        await form.getByLabel('Parent', { exact: true }).selectOption({ label: 'Footwear' });
        await form.getByRole('button', { name: 'Create category' }).click();
        const sentence = 'A category with this name already exists at this place in the tree.';
        await expect.poll(() => errorOf(name).textContent(), PAGE_SHOWS).toBe(sentence);
        await expectFocused(name, 'the Name field');
        expect(await alert().textContent()).toBe(sentence);
        // Another place may have the name: choosing it clears the error.
        await form.getByLabel('Parent', { exact: true }).selectOption({ label: 'Outdoor' });
        expect(await errorOf(name).count()).toBe(0);
        await form.getByRole('button', { name: 'Create category' }).click();
        await page.locator('[data-category="Outdoor"] + ul [data-category="shoes"]').waitFor();
        // The form starts again at the top level: the next category does not nest by mistake.
        expect(await form.getByLabel('Parent', { exact: true }).inputValue()).toBe('');
        expect(await name.inputValue()).toBe('');
        ids.shoes = Number(
          await page.locator('[data-category="shoes"] [data-node]').getAttribute('data-node'),
        );
        await expectFocused(nameOf('shoes'), 'the new category');

        // A name too long: the field says so in plain words.
        await name.fill('n'.repeat(257));
        await form.getByRole('button', { name: 'Create category' }).click();
        await expect
          .poll(() => errorOf(name).textContent(), PAGE_SHOWS)
          .toBe('Name can be at most 256 characters long.');
        await name.fill('Trail');
        expect(await errorOf(name).count()).toBe(0);
      });

      it('renames a category in place; a duplicate is refused next to the field', async () => {
        // Running is at the top now, beside Footwear and Outdoor.
        await openRow('Running');
        await page.getByRole('button', { name: 'Edit Running', exact: true }).click();
        const name = page.getByLabel('Name of Running', { exact: true });
        await expectFocused(name, 'the Name field of the edit form');
        expect(await name.inputValue()).toBe('Running');
        await name.fill('outdoor');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect
          .poll(() => errorOf(name).textContent(), PAGE_SHOWS)
          .toBe('A category with this name already exists at this place in the tree.');
        await name.fill('Trail running');
        expect(await errorOf(name).count()).toBe(0);
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        const edit = page.getByRole('button', { name: 'Edit Trail running', exact: true });
        await expectFocused(edit, 'the Edit button of the saved category');
        expect((await apiCall<{ Name: string }>('GET', `/category/${ids.Running}`)).Name).toBe(
          'Trail running',
        );
        await edit.click();
        await page.getByLabel('Name of Trail running', { exact: true }).press('Escape');
        await expectFocused(edit, 'the Edit button after Escape');
        expect(await page.getByLabel('Name of Trail running', { exact: true }).count()).toBe(0);
      });

      it.runIf(viewport === 'desktop')(
        're-parents by drag and drop, keeps the focus on the moved category, and refuses a cycle in plain words',
        async () => {
          await page.dragAndDrop('[data-category="Outdoor"]', '[data-category="Footwear"]');
          await expect.poll(() => parentInApi('Outdoor'), PAGE_SHOWS).toBe(ids.Footwear);
          await page.locator('[data-category="Footwear"] + ul [data-category="Outdoor"]').waitFor();
          await expectFocused(nameOf('Outdoor'), 'the dragged category');

          await page.dragAndDrop('[data-category="Footwear"]', '[data-category="Outdoor"]');
          await expect
            .poll(() => alert().textContent(), PAGE_SHOWS)
            .toBe('A category cannot be moved under itself or under one of its own subcategories.');
          expect(await parentInApi('Footwear')).toBeNull();

          await page.dragAndDrop('[data-category="Outdoor"]', '.dropzone');
          await expect.poll(() => parentInApi('Outdoor'), PAGE_SHOWS).toBeNull();
          await expectFocused(nameOf('Outdoor'), 'the category dropped at the top');
        },
      );

      it('refuses to delete a category with items, naming and counting them, with a link to them', async () => {
        ids.Boots = (await apiCall<{ Id: number }>('POST', '/category', { Name: 'Boots' })).Id;
        await apiCall('POST', '/item', { Title: 'Hiking boot', CategoryId: ids.Boots });
        await session.openPage('Brands');
        await session.openPage('Categories');
        await openRow('Boots');
        await page.getByRole('button', { name: 'Delete Boots', exact: true }).click();
        await expect
          .poll(() => alert().locator('p').first().textContent(), PAGE_SHOWS)
          .toBe('The category “Boots” has 1 item; move it to another category first.');
        await checkPage(session, 'Categories, a category with items');
        await alert().getByRole('link', { name: 'Show the items of “Boots”' }).click();
        await page.waitForURL((url) => url.search === `?category=${ids.Boots}`);
        await page.getByRole('link', { name: 'Hiking boot' }).waitFor();
        await session.openPage('Categories');
      });

      it('deletes a category with the focus on the tree', async () => {
        await openRow('Trail running');
        await page.getByRole('button', { name: 'Delete Trail running', exact: true }).click();
        await expectFocused(page.getByRole('group', { name: 'Category tree' }), 'the tree');
        await expect.poll(() => node('Trail running').count(), PAGE_SHOWS).toBe(0);
        await checkPage(session, 'Categories');
        expect(session.pageErrors).toEqual([]);
      });
    });
  },
);
