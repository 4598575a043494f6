// OAuth apps of the tenant: create one, rotate its secret (shown once), delete it.
import { useState, type FormEvent } from 'react';
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
import { SecretNotice } from './SecretNotice.tsx';

const TAKE = 50;
const TYPES = [
  { value: '1', label: 'Consumer' },
  { value: '2', label: 'Private' },
  { value: '3', label: 'Management' },
  { value: '4', label: 'Device' },
];

export default function AppsPage() {
  const editable = useAccess().can('apps', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(
    () => call(client.GET('/management/oauth/apps', { params: { query: { skip, take: TAKE } } })),
    [skip],
  );
  const action = useAction();
  const [draft, setDraft] = useState({ Name: '', Description: '', ApplicationTypeId: '2' });
  const [secret, setSecret] = useState<App>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
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
    });
  };
  const rotate = (app: App) =>
    void action.run(async () => {
      if (!confirm(`Rotate the secret of ${app.Name}? Its current secret and tokens stop working.`))
        return;
      setSecret(
        await call(
          client.POST('/management/oauth/apps/{applicationId}/secret', {
            params: { path: { applicationId: app.ApplicationId } },
          }),
        ),
      );
    });
  const remove = (app: App) =>
    void action.run(async () => {
      if (!confirm(`Delete the app ${app.Name}?`)) return;
      await call(
        client.DELETE('/management/oauth/apps/{applicationId}', {
          params: { path: { applicationId: app.ApplicationId } },
        }),
      );
      list.reload();
    });

  return (
    <>
      <PageTitle>Apps</PageTitle>
      <ErrorMessage error={list.error ?? action.error} />
      {secret?.ApplicationSecret && (
        <SecretNotice
          title={`Secret of ${secret.Name}`}
          label={`ApplicationId ${secret.ApplicationId}, secret`}
          secret={secret.ApplicationSecret}
          onClose={() => setSecret(undefined)}
        />
      )}
      {editable && (
        <Section title="New app">
          <form className="row" onSubmit={create}>
            <Field
              label="App name"
              required
              value={draft.Name}
              onChange={(Name) => setDraft({ ...draft, Name })}
            />
            <Field
              label="Description"
              value={draft.Description}
              onChange={(Description) => setDraft({ ...draft, Description })}
            />
            <Select
              label="Type"
              value={draft.ApplicationTypeId}
              options={TYPES}
              onChange={(ApplicationTypeId) => setDraft({ ...draft, ApplicationTypeId })}
            />
            <button type="submit" disabled={action.busy}>
              Create app
            </button>
          </form>
        </Section>
      )}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <PagedTable
          caption="Apps"
          total={list.data.TotalCount}
          headers={['Name', 'Type', 'ApplicationId', 'Created', ...(editable ? ['Actions'] : [])]}
          skip={skip}
          take={TAKE}
          onPage={setSkip}
        >
          {list.data.Results.map((app) => (
            <tr key={app.ApplicationId}>
              <td data-label="Name">
                {app.Name}
                {app.IsPredefined && ' (predefined)'}
              </td>
              <td data-label="Type">{app.ApplicationTypeDescription}</td>
              <td data-label="ApplicationId">
                <code>{app.ApplicationId}</code>
              </td>
              <td data-label="Created">{new Date(app.CreatedDate).toLocaleString()}</td>
              {editable && (
                <td>
                  <button type="button" onClick={() => rotate(app)}>
                    Rotate secret of {app.Name}
                  </button>
                  {!app.IsPredefined && (
                    <button type="button" onClick={() => remove(app)}>
                      Delete {app.Name}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </PagedTable>
      )}
    </>
  );
}
