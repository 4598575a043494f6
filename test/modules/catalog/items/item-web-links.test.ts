// An item's PublicWebLink is an absolute http or https URL: shops put it in <a href>, where a
// javascript:, data: or vbscript: link would run script in their page. Refused with 400 naming the
// field on every write (POST, PUT and PATCH, with the id in the path or the body) and in import
// records, where it fails the record.
import { describe, expect, it } from 'vitest';
import { useTenant } from '../../../support/test-api.ts';
import { CATALOG, createItem, getItem, type ItemJson, type Page } from '../catalog-fixtures.ts';
import { expectFieldError, expectStatus } from '../../../support/expectations.ts';
import {
  CSV,
  JSONL,
  importResults,
  jsonl,
  runImport,
  useImportApi,
} from '../imports/imports-fixtures.ts';

const ITEM = `${CATALOG}/item`;

const GOOD_LINKS = [
  'https://example.com',
  'http://example.com/shop/lamp?id=1&colour=red#details',
  'HTTPS://EXAMPLE.COM/LAMP',
  'https://user@example.com:8443/path',
  'https://例え.jp/ランプ',
  'http://127.0.0.1/x',
];

const BAD_LINKS = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'javascript://example.com/%0aalert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.com/file',
  'mailto:shop@example.com',
  '/relative/path',
  '//example.com/protocol-relative',
  'https://',
  'https:example.com',
  'https:/example.com',
  'http://exa mple.com/',
  'https://example.com/\u0000',
  'www.example.com',
];

const api = useImportApi();
const acme = useTenant(api, 'acme');

const call = (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) =>
  api.call({ method, url, tenant: acme, body });

async function itemCount(): Promise<number> {
  const response = await api.call({ url: `${CATALOG}/items?take=1`, tenant: acme });
  expectStatus(response, 200);
  return response.json<Page<ItemJson>>().TotalCount;
}

describe('POST /private/catalog/item: PublicWebLink', () => {
  it.each(GOOD_LINKS)('stores the http(s) link %s', async (link) => {
    const response = await call('POST', ITEM, { Title: 'Linked', PublicWebLink: link });
    expectStatus(response, 201);
    expect(response.json<ItemJson>().PublicWebLink).toBe(link);
  });

  it.each(BAD_LINKS)('refuses %j with 400 naming PublicWebLink, storing nothing', async (link) => {
    const before = await itemCount();
    const body = expectFieldError(
      await call('POST', ITEM, { Title: 'Linked', PublicWebLink: link }),
      'PublicWebLink',
    );
    const messages = body.Errors!.filter((e) => e.Field === 'PublicWebLink').map((e) => e.Message);
    expect(messages).toContain('must be an absolute http:// or https:// URL');
    expect(await itemCount()).toBe(before);
  });

  it('still takes null (no link)', async () => {
    const response = await call('POST', ITEM, { Title: 'Unlinked', PublicWebLink: null });
    expectStatus(response, 201);
    expect(response.json<ItemJson>().PublicWebLink).toBeNull();
  });
});

describe('PUT and PATCH /private/catalog/item[/{id}]: PublicWebLink', () => {
  it('refuses a javascript:, data: or vbscript: link on every update, keeping the stored one', async () => {
    const item = await createItem(api, acme, { PublicWebLink: 'https://example.com/kept' });
    for (const link of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
    ]) {
      const full = { Title: item.Title, PublicWebLink: link };
      expectFieldError(await call('PUT', `${ITEM}/${item.Id}`, full), 'PublicWebLink');
      expectFieldError(await call('PUT', ITEM, { Id: item.Id, ...full }), 'PublicWebLink');
      expectFieldError(
        await call('PATCH', `${ITEM}/${item.Id}`, { PublicWebLink: link }),
        'PublicWebLink',
      );
      expectFieldError(
        await call('PATCH', ITEM, { Id: item.Id, PublicWebLink: link }),
        'PublicWebLink',
      );
    }
    expect((await getItem(api, acme, item.Id)).PublicWebLink).toBe('https://example.com/kept');
    const patched = await call('PATCH', `${ITEM}/${item.Id}`, {
      PublicWebLink: 'http://example.com/new',
    });
    expectStatus(patched, 200);
    expect(patched.json<ItemJson>().PublicWebLink).toBe('http://example.com/new');
  });
});

describe('POST /private/catalog/imports: PublicWebLink of a record', () => {
  it('fails a JSONL record with a javascript:, data: or vbscript: link, naming the field', async () => {
    const records = [
      { SKU: 'LINK-1', Title: 'Good link', PublicWebLink: 'https://example.com/1' },
      { SKU: 'LINK-2', Title: 'Script link', PublicWebLink: 'javascript:alert(1)' },
      {
        SKU: 'LINK-3',
        Title: 'Data link',
        PublicWebLink: 'data:text/html,<script>alert(1)</script>',
      },
      { SKU: 'LINK-4', Title: 'VBScript link', PublicWebLink: 'VBScript:msgbox(1)' },
    ];
    const job = await runImport(api, acme, jsonl(records), JSONL, 'errorPolicy=SkipFailedRows');
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 1, RowsFailed: 3 });
    const failed = (await importResults(api, acme, job.Id)).filter((r) => r.Status === 'Failed');
    expect(failed.map((r) => r.Line)).toEqual([2, 3, 4]);
    for (const result of failed)
      expect(result.Errors!.map((e) => e.Field)).toContain('PublicWebLink');
  });

  it('fails the whole import under RejectAll, and a CSV row the same way', async () => {
    const rejected = await runImport(
      api,
      acme,
      jsonl([
        { SKU: 'LINK-5', Title: 'Good link', PublicWebLink: 'https://example.com/5' },
        { SKU: 'LINK-6', Title: 'Script link', PublicWebLink: 'javascript:alert(1)' },
      ]),
      JSONL,
    );
    expect(rejected).toMatchObject({ State: 'Failed', RowsWritten: 0 });
    const csv =
      'SKU,Title,PublicWebLink\nLINK-7,Good,https://example.com/7\nLINK-8,Bad,javascript:alert(1)\n';
    const job = await runImport(api, acme, csv, CSV, 'errorPolicy=SkipFailedRows');
    expect(job).toMatchObject({ State: 'Succeeded', RowsWritten: 1, RowsFailed: 1 });
    const [failed] = (await importResults(api, acme, job.Id)).filter((r) => r.Status === 'Failed');
    expect(failed!.Errors!.map((e) => e.Field)).toContain('PublicWebLink');
  });
});

describe('GET /openapi.json: PublicWebLink', () => {
  it('says the link is an http or https URL in the item bodies', async () => {
    const document = (await api.call({ url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    for (const [path, method] of [
      ['/private/catalog/item', 'post'],
      ['/private/catalog/item/{id}', 'put'],
      ['/private/catalog/item/{id}', 'patch'],
    ] as const) {
      const body = JSON.stringify(document.paths[path]![method]!.requestBody);
      const link = /"PublicWebLink":(\{.*?\}\]\})/.exec(body)?.[1];
      expect(link, `${method} ${path}`).toContain('"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://');
      expect(link).toContain('An absolute http:// or https:// URL.');
    }
  });
});
