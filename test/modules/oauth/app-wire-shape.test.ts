// App documents are built by the database (migration 0009) and passed through as text; every
// field combination the API can store must come out exactly in the shape of the App schema the
// OpenAPI document shows (no field missing, none extra, right types and formats).
import { describe, expect, it } from 'vitest';
import { App, AppList } from '../../../src/modules/oauth/app-schemas.ts';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { expectWireShape } from '../../support/wire-shape.ts';
import type { AppJson } from './oauth-fixtures.ts';

const APPS = '/management/oauth/apps';

const api = useTestApi();
const acme = useTenant(api, 'acme');

// Text that JSON must escape or that is outside ASCII: quotes, backslashes, control characters,
// line and paragraph separators, accents (composed and combining), CJK, right-to-left, emoji.
const TEXTS = [
  'Plain',
  'Ünïcödé café e\u0301 名前 עברית 🚀👩‍💻',
  'say "hi" \\ back\\slash / slash',
  'tab\tnew\nline\rreturn \u0001\u001f\u007f',
  'sep\u2028line\u2029para <script>&amp;</script>',
  'x'.repeat(256),
];

const DESCRIPTIONS: (string | null | undefined)[] = [
  undefined,
  null,
  '',
  'Ünïcödé 🚀 "quoted" \\ \n\t\u0002',
  'd'.repeat(500),
];

/** The text with a mark of its own (easier to tell apart in a failure), still ≤ 256 characters. */
function named(text: string, mark: string): string {
  const suffix = ` ${mark}`;
  return text.length + suffix.length > 256
    ? `${text.slice(0, 256 - suffix.length)}${suffix}`
    : `${text}${suffix}`;
}

async function expectApp(id: string, sent: { Name: string; Description?: string | null }) {
  const fetched = await api.call({ url: `${APPS}/${id}`, tenant: acme });
  expect(fetched.statusCode, fetched.body).toBe(200);
  const body = fetched.json<AppJson>();
  expectWireShape(App, body, `GET ${APPS}/${id}`);
  expect(body.Name).toBe(sent.Name);
  expect(body.Description).toBe(sent.Description ?? null);
  return body;
}

describe('app documents match the App schema', () => {
  it('for every application type, name and description, on create, fetch and update', async () => {
    let n = 0;
    for (const type of [1, 2, 3, 4]) {
      for (const [i, description] of DESCRIPTIONS.entries()) {
        const name = named(TEXTS[(type + i) % TEXTS.length]!, `c${n}`);
        const sent =
          description === undefined ? { Name: name } : { Name: name, Description: description };
        const created = await api.call({
          method: 'POST',
          url: APPS,
          tenant: acme,
          body: { ...sent, ApplicationTypeId: type },
        });
        expect(created.statusCode, created.body).toBe(201);
        const app = created.json<AppJson>();
        expectWireShape(App, app, `POST ${APPS}`);
        await expectApp(app.ApplicationId, sent);

        // Each update changes name, description and type, so every text is stored by an update too.
        const update = {
          Name: named(TEXTS[(type + i + 1) % TEXTS.length]!, `u${n}`),
          Description: DESCRIPTIONS[(i + 1) % DESCRIPTIONS.length] ?? null,
          ApplicationTypeId: (type % 4) + 1,
        };
        const put = await api.call({
          method: 'PUT',
          url: `${APPS}/${app.ApplicationId}`,
          tenant: acme,
          body: update,
        });
        expect(put.statusCode, put.body).toBe(200);
        expectWireShape(App, put.json(), `PUT ${APPS}/${app.ApplicationId}`);
        await expectApp(app.ApplicationId, update);
        n++;
      }
    }
    expect(n).toBe(20);
  });

  it('for the predefined app and an app whose secret was rotated', async () => {
    const predefined = await api.call({ url: `${APPS}/${acme.appId}`, tenant: acme });
    expect(predefined.statusCode, predefined.body).toBe(200);
    expectWireShape(App, predefined.json(), 'the predefined app');
    expect(predefined.json<AppJson>().IsPredefined).toBe(true);

    const created = await api.call({
      method: 'POST',
      url: APPS,
      tenant: acme,
      body: { Name: 'Rotated 🔑', ApplicationTypeId: 2 },
    });
    const id = created.json<AppJson>().ApplicationId;
    const rotated = await api.call({ method: 'POST', url: `${APPS}/${id}/secret`, tenant: acme });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expectWireShape(App, rotated.json(), 'the rotation answer');
    expect(rotated.json<AppJson>().ApplicationSecret).toEqual(expect.any(String));
    await expectApp(id, { Name: 'Rotated 🔑' });
  });

  it('in every page of the list', async () => {
    let skip = 0;
    let seen = 0;
    for (;;) {
      const page = await api.call({ url: `${APPS}?skip=${skip}&take=7`, tenant: acme });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json<{ Results: AppJson[]; TotalCount: number }>();
      expectWireShape(AppList, body, `GET ${APPS}?skip=${skip}`);
      seen += body.Results.length;
      if (body.Results.length === 0 || seen >= body.TotalCount) break;
      skip += 7;
    }
    // The predefined app, the 20 of the first test and the rotated one.
    expect(seen).toBe(22);
  });

  it('is a check that fails on a field too many, a field missing or a wrong type', async () => {
    const fetched = (await api.call({ url: `${APPS}/${acme.appId}`, tenant: acme })).json<
      Record<string, unknown>
    >();
    expect(() => expectWireShape(App, { ...fetched, Secret: 'x' })).toThrow();
    const { CreatedDate: _, ...withoutDate } = fetched;
    expect(() => expectWireShape(App, withoutDate)).toThrow();
    expect(() => expectWireShape(App, { ...fetched, IsPredefined: 'true' })).toThrow();
    expect(() => expectWireShape(App, { ...fetched, CreatedDate: 'yesterday' })).toThrow();
  });
});
