// POST /analytics/logs: a user profile's PhotoUrl (UnknownUserProfiles of ItemLike and the other
// counters that carry profiles) is an absolute http or https URL, or null; a javascript:, data:
// or vbscript: URL would run script wherever a report shows the photo as a link. The batch is
// refused (all or nothing) naming the record's index and field.
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { ingest, ingestOk, logsOk, oaDate } from './analytics-fixtures.ts';
import { expectError } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

const DAY = '2026-02-03';
const like = (PhotoUrl: unknown) => ({
  Counter: 'ItemLike',
  RelatedItemId: 5,
  CreatedDate: `${DAY}T10:00:00Z`,
  UnknownUserProfiles: [
    { Id: 'u1', PhotoUrl: 'https://cdn.example.com/u1.png', DisplayName: 'One' },
    { Id: 'u2', PhotoUrl, DisplayName: 'Two' },
  ],
});

describe('POST /analytics/logs: UnknownUserProfiles[].PhotoUrl', () => {
  it('stores http and https URLs, and null', async () => {
    const urls = ['https://cdn.example.com/u2.png', 'HTTP://cdn.example.com/u2.png?size=64', null];
    await ingestOk(api, acme, urls.map(like));
    const page = await logsOk(api, acme, 'ItemLike', `OADate=${oaDate(DAY)}`);
    expect(
      page.Logs.map((log) => (log.UnknownUserProfiles as { PhotoUrl: unknown }[])[1]!.PhotoUrl),
    ).toEqual(urls);
  });

  it.each([
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//cdn.example.com/u2.png',
    'u2.png',
  ])('refuses %j with 400 naming the record and field, storing none of the batch', async (url) => {
    const day = '2026-02-04';
    const good = { ...like('https://cdn.example.com/ok.png'), CreatedDate: `${day}T10:00:00Z` };
    const bad = { ...like(url), CreatedDate: `${day}T10:00:00Z` };
    const body = expectError(
      await ingest(api, acme, [good, bad]),
      400,
      'InvalidAnalyticsRecord',
      '[1].UnknownUserProfiles',
    );
    expect(body.Errors!.find((e) => e.Field === '[1].UnknownUserProfiles')!.Message).toMatch(
      /PhotoUrl.*http/,
    );
    expect((await logsOk(api, acme, 'ItemLike', `OADate=${oaDate(day)}`)).Logs).toEqual([]);
  });
});
