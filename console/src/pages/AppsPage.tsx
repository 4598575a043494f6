// OAuth apps of the tenant: create one, rotate its secret, delete it. A secret is shown once, on
// create or rotation, until Done; nothing keeps it, and only rotating makes a new one. Names are
// unique in the tenant (the API answers 409 DuplicateAppName, shown next to the name).
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  PagedTable,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { App } from '../types.ts';
import { focusFailure, focusWhenShown } from './focus.ts';
import { SecretNotice } from './SecretNotice.tsx';
import './admin-pages.css';

const TAKE = 50;
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
  const ids = { create: useId(), list: useId() };
  const form = useRef<HTMLFormElement>(null);
  const rowOf = (id: string) => () => document.querySelector(`tr[data-app="${CSS.escape(id)}"]`);

  const create = (event: FormEvent) => {
    event.preventDefault();
    setStatus(undefined);
    void creating
      .run(async () => {
        const app = await call(
          client.POST('/management/oauth/apps', {
            body: {
              Name: draft.Name.trim(),
              Description: draft.Description.trim() || null,
              ApplicationTypeId: Number(draft.ApplicationTypeId),
            },
          }),
        );
        setSecret(app);
        setDraft({ Name: '', Description: '', ApplicationTypeId: draft.ApplicationTypeId });
        list.reload();
      })
      .then((done) => {
        if (!done)
          focusFailure(
            () => form.current,
            () => document.getElementById(ids.create),
          );
      });
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
        if (!done) focusWhenShown(() => document.getElementById(ids.list));
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
      .then(() => focusWhenShown(() => document.getElementById(ids.list)));
  };
  const done = () => {
    const shown = secret;
    setSecret(undefined);
    if (shown) focusWhenShown(rowOf(shown.ApplicationId));
  };

  return (
    <div className="apps-page">
      <PageTitle>Apps</PageTitle>
      <p className="muted">
        An app is a program that calls the API for you (a till, a kiosk, a web shop) with its
        ApplicationId and secret; its type decides which parts of the API it may call. Each app has
        a name of its own. A secret is shown once, when the app is created or its secret rotated.
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
            <Field
              label="App name"
              required
              value={draft.Name}
              error={creating.fieldError('Name')}
              onChange={(Name) => {
                creating.clearField('Name');
                setDraft({ ...draft, Name });
              }}
            />
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
