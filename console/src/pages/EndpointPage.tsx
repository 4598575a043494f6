// The tenant's integration endpoint: create it, follow its status live until it is Live or
// Failed, show and regenerate the subscription key, delete it.
import { useEffect, useState, type FormEvent } from 'react';
import { ApiFailure, call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { Endpoint } from '../types.ts';
import { SecretNotice } from './SecretNotice.tsx';

const STATUS = ['', 'Creation in progress', 'Live', 'Failed'];
const TIERS = [
  { value: '0', label: 'Developer' },
  { value: '1', label: 'Standard' },
  { value: '2', label: 'Premium' },
];
const POLL_MS = 2000;

async function loadEndpoint(): Promise<Endpoint | null> {
  try {
    return await call(client.GET('/management/integration/endpoint'));
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return null;
    throw error;
  }
}

export default function EndpointPage() {
  const editable = useAccess().can('integration', 'write');
  const endpoint = useLoad(loadEndpoint, []);
  const action = useAction();
  const [draft, setDraft] = useState({ ServiceName: '', ServiceTier: '0', AdminMail: '' });
  const [key, setKey] = useState<string>();
  const status = endpoint.data?.Status;

  // While provisioning runs, ask again every two seconds; the status changes in place.
  useEffect(() => {
    if (status !== 1) return;
    const timer = setTimeout(endpoint.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [status, endpoint.data, endpoint.reload]);

  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await call(
        client.POST('/management/integration/endpoint', {
          body: {
            ServiceName: draft.ServiceName.trim(),
            ServiceTier: Number(draft.ServiceTier),
            AdminMail: draft.AdminMail.trim(),
          },
        }),
      );
      endpoint.reload();
    });
  };
  const showKey = (regenerate: boolean) =>
    void action.run(async () => {
      const answer = await call(
        regenerate
          ? client.POST('/management/integration/endpoint/subscriptionkey')
          : client.GET('/management/integration/endpoint/subscriptionkey'),
      );
      setKey(answer.SubscriptionKey);
    });
  const remove = () =>
    void action.run(async () => {
      if (!confirm('Delete the integration endpoint?')) return;
      await call(client.DELETE('/management/integration/endpoint'));
      endpoint.reload();
    });

  const current = endpoint.data;
  return (
    <>
      <PageTitle>Integration endpoint</PageTitle>
      <ErrorMessage error={endpoint.error ?? action.error} />
      {endpoint.data === undefined && endpoint.loading && <Loading />}
      {key && (
        <SecretNotice
          title="Subscription key"
          label="X-Subscription-Key"
          secret={key}
          onClose={() => setKey(undefined)}
        />
      )}
      {current && (
        <Section title={current.ServiceName}>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <span role="status" aria-live="polite" data-status={current.Status}>
                {STATUS[current.Status] ?? current.Status}
              </span>
              {current.Status === 1 && <progress aria-label="Provisioning" />}
            </dd>
            <dt>Tier</dt>
            <dd>{TIERS[current.ServiceTier]?.label}</dd>
            <dt>Admin e-mail</dt>
            <dd>{current.AdminMail}</dd>
            <dt>Created</dt>
            <dd>{new Date(current.CreationDate).toLocaleString()}</dd>
            {current.ManagementPortalUrl && (
              <>
                <dt>Developer portal</dt>
                <dd>
                  <a href={current.ManagementPortalUrl}>{current.ManagementPortalUrl}</a>
                </dd>
              </>
            )}
          </dl>
          <div className="actions">
            {current.Status === 2 && (
              <button type="button" onClick={() => showKey(false)}>
                Show subscription key
              </button>
            )}
            {editable && current.Status === 2 && (
              <button type="button" onClick={() => showKey(true)}>
                Regenerate subscription key
              </button>
            )}
            {editable && (
              <button type="button" className="danger" onClick={remove}>
                Delete endpoint
              </button>
            )}
          </div>
        </Section>
      )}
      {endpoint.data !== undefined && (!current || current.Status === 3) && editable && (
        <Section title="Create the endpoint">
          <form className="row" onSubmit={create}>
            <Field
              label="Service name"
              required
              value={draft.ServiceName}
              onChange={(ServiceName) => setDraft({ ...draft, ServiceName })}
            />
            <Select
              label="Tier"
              value={draft.ServiceTier}
              options={TIERS}
              onChange={(ServiceTier) => setDraft({ ...draft, ServiceTier })}
            />
            <Field
              label="Admin e-mail"
              type="email"
              required
              value={draft.AdminMail}
              onChange={(AdminMail) => setDraft({ ...draft, AdminMail })}
            />
            <button type="submit" disabled={action.busy}>
              Create endpoint
            </button>
          </form>
        </Section>
      )}
      {endpoint.data === null && !editable && <p>No integration endpoint.</p>}
    </>
  );
}
