// OAuth apps of the tenant: create one, rotate its secret, delete it. A secret is shown once, on
// create or rotation, until Done; nothing keeps it, and only rotating makes a new one. The API
// accepts apps of one name (an app is identified by its ApplicationId); before creating, the page
// looks the name up among the tenant's apps and, when it is taken (whatever the case and
// surrounding spaces), warns next to the name and creates only after "Create anyway".
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  focusLater,
  Loading,
  PagedTable,
  PageTitle,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { App } from '../types.ts';
import { focusFailure } from './focus.ts';
import { SecretNotice } from './SecretNotice.tsx';
import './admin-pages.css';
import { sameName } from '../same-name.ts';

const TAKE = 50;
/** The apps list's largest page: the names are looked up with one call (more only past it). */
const NAMES_TAKE = 1000;
/**
 * A table scrolls inside its own box when it is wider than the page (never the page); the box
 * takes the keyboard focus so that it can be scrolled without a pointer.
 */
const scrolling = (label: string) => (table: ReactNode) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
    {table}
  </div>
);
const TYPES = [
  { value: '1', label: 'Consumer (public API)' },
  { value: '2', label: 'Private (public and private API)' },
  { value: '3', label: 'Management (everything)' },
  { value: '4', label: 'Device (public API, device identity)' },
];
const LABELS = { Name: 'App name', Description: 'Description', ApplicationTypeId: 'Type' };

/** The name (trimmed) of an app of the tenant named `name`, whatever the case; else undefined. */
async function takenName(name: string): Promise<string | undefined> {
  for (let skip = 0; ; skip += NAMES_TAKE) {
    const page = await call(
      client.GET('/management/oauth/apps', { params: { query: { skip, take: NAMES_TAKE } } }),
    );
    const found = page.Results.find((app) => sameName(app.Name, name));
    if (found) return found.Name.trim();
    if (page.Results.length < NAMES_TAKE || skip + NAMES_TAKE >= page.TotalCount) return undefined;
  }
}

export default function AppsPage() {
  const editable = useAccess().can('apps', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(
    () => call(client.GET('/management/oauth/apps', { params: { query: { skip, take: TAKE } } })),
    [skip],
  );
  const creating = useAction(LABELS);
  const acting = useAction();
  const [draft, setDraft] = useState({ Name: '', Description: '', ApplicationTypeId: '2' });
  // The one place a secret lives, until Done (or leaving the page).
  const [secret, setSecret] = useState<App>();
  const [status, setStatus] = useState<string>();
  // The name of the tenant's app that the draft's name repeats, once the user was told.
  const [taken, setTaken] = useState<string>();
  const ids = { create: useId(), list: useId(), warning: useId() };
  const form = useRef<HTMLFormElement>(null);
  const anyway = useRef<HTMLButtonElement>(null);
  // The name as typed now: a look-up that comes back after the name changed says nothing.
  const typed = useRef(draft.Name);
  typed.current = draft.Name;
  const rowOf = (id: string) => () => document.querySelector(`tr[data-app="${CSS.escape(id)}"]`);

  /** Creates the draft; unless `confirmed`, first warns (and stops) when its name is taken. */
  const submit = (confirmed: boolean) => {
    setStatus(undefined);
    setTaken(undefined);
    const sent = draft;
    let warned = false;
    void creating
      .run(async () => {
        if (!confirmed && sent.Name.trim()) {
          const existing = await takenName(sent.Name);
          if (typed.current !== sent.Name) return;
          if (existing !== undefined) {
            setTaken(existing);
            warned = true;
            return;
          }
        }
        const app = await call(
          client.POST('/management/oauth/apps', {
            body: {
              Name: sent.Name.trim(),
              Description: sent.Description.trim() || null,
              ApplicationTypeId: Number(sent.ApplicationTypeId),
            },
          }),
        );
        setSecret(app);
        setDraft({ Name: '', Description: '', ApplicationTypeId: sent.ApplicationTypeId });
        list.reload();
      })
      .then((done) => {
        if (warned) focusLater(() => anyway.current);
        else if (!done)
          focusFailure(
            () => form.current,
            () => document.getElementById(ids.create),
          );
      });
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    submit(false);
  };
  const rotate = (app: App) => {
    if (
      !confirm(
        `Rotate the secret of ${app.Name}? Its current secret and tokens stop working at once.`,
      )
    )
      return;
    setStatus(undefined);
    void acting
      .run(async () => {
        setSecret(
          await call(
            client.POST('/management/oauth/apps/{applicationId}/secret', {
              params: { path: { applicationId: app.ApplicationId } },
            }),
          ),
        );
      })
      .then((done) => {
        if (!done) focusLater(() => document.getElementById(ids.list));
      });
  };
  const remove = (app: App) => {
    if (!confirm(`Delete the app ${app.Name}? Its tokens stop working at once.`)) return;
    setStatus(undefined);
    void acting
      .run(async () => {
        await call(
          client.DELETE('/management/oauth/apps/{applicationId}', {
            params: { path: { applicationId: app.ApplicationId } },
          }),
        );
        if (secret?.ApplicationId === app.ApplicationId) setSecret(undefined);
        setStatus(`App ${app.Name} deleted.`);
        list.reload();
      })
      .then(() => focusLater(() => document.getElementById(ids.list)));
  };
  const done = () => {
    const shown = secret;
    setSecret(undefined);
    if (shown) focusLater(rowOf(shown.ApplicationId));
  };

  return (
    <div className="apps-page">
      <PageTitle>Apps</PageTitle>
      <p className="muted">
        An app is a program that calls the API for you (a till, a kiosk, a web shop) with its
        ApplicationId and secret; its type decides which parts of the API it may call. Give each app
        a name of its own, so that you can tell them apart in lists. A secret is shown once, when
        the app is created or its secret rotated.
      </p>
      <ErrorMessage error={list.error} />
      {secret?.ApplicationSecret && (
        <SecretNotice
          key={secret.ApplicationSecret}
          title={`Secret of ${secret.Name}`}
          label={`ApplicationId ${secret.ApplicationId}, secret`}
          secret={secret.ApplicationSecret}
          renew="If it is lost, rotate the secret: the app gets a new one and the old one stops working."
          onClose={done}
        />
      )}
      {editable && (
        <Section title="New app">
          <div tabIndex={-1} id={ids.create} className="action-result">
            <ErrorMessage error={creating.message} />
          </div>
          <form className="row" onSubmit={create} ref={form} noValidate>
            <div className={taken === undefined ? 'app-name' : 'app-name warned'}>
              <Field
                label="App name"
                required
                value={draft.Name}
                error={creating.fieldError('Name')}
                onChange={(Name) => {
                  creating.clearField('Name');
                  setTaken(undefined);
                  setDraft({ ...draft, Name });
                }}
              />
              {taken !== undefined && (
                <div className="name-warning">
                  <p id={ids.warning}>
                    An app named “{taken}” already exists. Apps are told apart by name in lists;
                    choose another name, or create it anyway.
                  </p>
                  <button
                    type="button"
                    ref={anyway}
                    aria-describedby={ids.warning}
                    disabled={creating.busy}
                    onClick={() => submit(true)}
                  >
                    Create anyway
                  </button>
                </div>
              )}
            </div>
            <Field
              label="Description"
              value={draft.Description}
              error={creating.fieldError('Description')}
              onChange={(Description) => {
                creating.clearField('Description');
                setDraft({ ...draft, Description });
              }}
            />
            <Select
              label="Type"
              value={draft.ApplicationTypeId}
              options={TYPES}
              error={creating.fieldError('ApplicationTypeId')}
              onChange={(ApplicationTypeId) => {
                creating.clearField('ApplicationTypeId');
                setDraft({ ...draft, ApplicationTypeId });
              }}
            />
            <button type="submit" disabled={creating.busy}>
              Create app
            </button>
          </form>
        </Section>
      )}
      <div tabIndex={-1} id={ids.list} className="action-result">
        <ErrorMessage error={acting.message} />
        {status && (
          <p className="ok" role="status">
            {status}
          </p>
        )}
      </div>
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <PagedTable
          caption="Apps"
          total={list.data.TotalCount}
          headers={['Name', 'Type', 'ApplicationId', 'Created', ...(editable ? ['Actions'] : [])]}
          skip={skip}
          take={TAKE}
          onPage={setSkip}
          wrap={scrolling('Apps, scrollable')}
        >
          {list.data.Results.map((app) => (
            <tr key={app.ApplicationId} data-app={app.ApplicationId} tabIndex={-1}>
              <td className="wrap">
                {app.Name}
                {app.IsPredefined && ' (predefined)'}
              </td>
              <td>{app.ApplicationTypeDescription}</td>
              <td className="wrap">
                <code>{app.ApplicationId}</code>
              </td>
              <td>{new Date(app.CreatedDate).toLocaleString()}</td>
              {editable && (
                <td>
                  <button type="button" disabled={acting.busy} onClick={() => rotate(app)}>
                    Rotate secret of {app.Name}
                  </button>
                  {!app.IsPredefined && (
                    <button
                      type="button"
                      className="danger"
                      disabled={acting.busy}
                      onClick={() => remove(app)}
                    >
                      Delete {app.Name}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </PagedTable>
      )}
    </div>
  );
}
