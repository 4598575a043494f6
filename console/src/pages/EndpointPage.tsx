// The tenant's integration endpoint: what it is and when to create one; create it, follow its
// status live until it is Live or Failed, delete it. Its subscription key is shown once: when the
// endpoint goes live while the page follows it, or when a new key is issued; once dismissed it
// is gone, and only issuing a new one (which stops the current one) gives another.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiFailure, call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  focusLater,
  Loading,
  PageTitle,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import type { Endpoint } from '../types.ts';
import { focusFailure } from './focus.ts';
import { SecretNotice } from './SecretNotice.tsx';
import './admin-pages.css';

const STATUS = ['', 'Creation in progress', 'Live', 'Failed'];
const TIER_NAMES = ['Developer', 'Standard', 'Premium'];
const TIERS = TIER_NAMES.map((label, value) => ({ value: String(value), label }));
const POLL_MS = 2000;
const LABELS = { ServiceName: 'Service name', ServiceTier: 'Tier', AdminMail: 'Admin e-mail' };

async function loadEndpoint(): Promise<Endpoint | null> {
  try {
    return await call(client.GET('/management/integration/endpoint'));
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return null;
    throw error;
  }
}

/** What an integration endpoint is and when to create one, in a few plain sentences. */
function WhatIsIt() {
  return (
    <Section title="What is an integration endpoint?">
      <p>
        An integration endpoint is a separate address of your API for other companies’ or teams’
        systems (an ERP, a warehouse system, a partner’s shop). They call it with a subscription key
        of their own, and its tier limits how many requests a second it takes, so that one
        integration cannot slow down your tills and apps.
      </p>
      <p>
        Create one when such a system is to connect to your back office. Your own apps and devices
        do not need it: they call the API directly. You can have one endpoint; it is ready a short
        while after you create it, and the admin e-mail address is told when it is.
      </p>
    </Section>
  );
}

export default function EndpointPage() {
  const editable = useAccess().can('integration', 'write');
  const endpoint = useLoad(loadEndpoint, []);
  const creating = useAction(LABELS);
  const acting = useAction();
  const [draft, setDraft] = useState({ ServiceName: '', ServiceTier: '0', AdminMail: '' });
  const [key, setKey] = useState<string>();
  const [status, setStatus] = useState<string>();
  const ids = { create: useId(), endpoint: useId() };
  const form = useRef<HTMLFormElement>(null);
  // Whether this page saw the endpoint in creation: its key is shown once when it goes live.
  const followed = useRef(false);
  const current = endpoint.data;
  const state = current?.Status;

  // While provisioning runs, ask again every two seconds; the status changes in place.
  useEffect(() => {
    if (state === 1) followed.current = true;
    if (state !== 1) return;
    const timer = setTimeout(endpoint.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [state, endpoint.data, endpoint.reload]);

  // Gone live while followed: its first key, shown this once.
  useEffect(() => {
    if (state !== 2 || !followed.current) return;
    followed.current = false;
    void acting.run(async () => {
      const answer = await call(client.GET('/management/integration/endpoint/subscriptionkey'));
      setKey(answer.SubscriptionKey);
    });
  }, [state]);

  const create = (event: FormEvent) => {
    event.preventDefault();
    setStatus(undefined);
    void creating
      .run(async () => {
        await call(
          client.POST('/management/integration/endpoint', {
            body: {
              ServiceName: draft.ServiceName.trim(),
              ServiceTier: Number(draft.ServiceTier),
              AdminMail: draft.AdminMail.trim(),
            },
          }),
        );
        followed.current = true;
        endpoint.reload();
        focusLater(() => document.querySelector('[data-status]'));
      })
      .then((done) => {
        if (!done)
          focusFailure(
            () => form.current,
            () => document.getElementById(ids.create),
          );
      });
  };
  const issueKey = () => {
    if (
      !confirm(
        'Issue a new subscription key? The current key stops working at once for every system that uses it.',
      )
    )
      return;
    setStatus(undefined);
    void acting
      .run(async () => {
        const answer = await call(client.POST('/management/integration/endpoint/subscriptionkey'));
        setKey(answer.SubscriptionKey);
      })
      .then((done) => {
        if (!done) focusLater(() => document.getElementById(ids.endpoint));
      });
  };
  const remove = () => {
    if (!confirm('Delete the integration endpoint? Systems that use it can no longer connect.'))
      return;
    setStatus(undefined);
    void acting
      .run(async () => {
        await call(client.DELETE('/management/integration/endpoint'));
        setKey(undefined);
        followed.current = false;
        setStatus('The integration endpoint was deleted.');
        endpoint.reload();
      })
      .then(() => focusLater(() => document.getElementById(ids.endpoint)));
  };
  const done = () => {
    setKey(undefined);
    focusLater(() => document.getElementById(`${ids.endpoint}-heading`));
  };

  return (
    <div className="endpoint-page">
      <PageTitle>Integration endpoint</PageTitle>
      <WhatIsIt />
      <ErrorMessage error={endpoint.error} />
      <div tabIndex={-1} id={ids.endpoint} className="action-result">
        <ErrorMessage error={acting.message} />
        {status && (
          <p className="ok" role="status">
            {status}
          </p>
        )}
      </div>
      {endpoint.data === undefined && endpoint.loading && <Loading />}
      {key && (
        <SecretNotice
          key={key}
          title="Subscription key"
          label="X-Subscription-Key"
          secret={key}
          renew="If it is lost, issue a new key: the current one then stops working."
          onClose={done}
        />
      )}
      {current && (
        <section className="panel" aria-labelledby={`${ids.endpoint}-heading`}>
          <h2 id={`${ids.endpoint}-heading`} tabIndex={-1}>
            Your endpoint: {current.ServiceName}
          </h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <span role="status" aria-live="polite" data-status={current.Status} tabIndex={-1}>
                {STATUS[current.Status] ?? current.Status}
              </span>
              {current.Status === 1 && <progress aria-label="Provisioning" />}
            </dd>
            <dt>Tier</dt>
            <dd>{TIER_NAMES[current.ServiceTier]}</dd>
            <dt>Admin e-mail</dt>
            <dd className="wrap">{current.AdminMail}</dd>
            <dt>Created</dt>
            <dd>{new Date(current.CreationDate).toLocaleString()}</dd>
            {current.ManagementPortalUrl && (
              <>
                <dt>Developer portal</dt>
                <dd className="wrap">
                  <a href={current.ManagementPortalUrl}>{current.ManagementPortalUrl}</a>
                </dd>
              </>
            )}
          </dl>
          {current.Status === 2 && (
            <p className="muted">
              Its subscription key is shown once: when the endpoint goes live while this page is
              open, or when you issue a new one. It cannot be shown again.
            </p>
          )}
          <div className="actions">
            {editable && current.Status === 2 && (
              <button type="button" onClick={issueKey} disabled={acting.busy}>
                Issue a new subscription key
              </button>
            )}
            {editable && (
              <button type="button" className="danger" onClick={remove} disabled={acting.busy}>
                Delete endpoint
              </button>
            )}
          </div>
        </section>
      )}
      {endpoint.data !== undefined && (!current || current.Status === 3) && editable && (
        <Section title="Create the endpoint">
          <div tabIndex={-1} id={ids.create} className="action-result">
            <ErrorMessage error={creating.message} />
          </div>
          <form className="row" onSubmit={create} ref={form} noValidate>
            <Field
              label="Service name"
              required
              value={draft.ServiceName}
              error={creating.fieldError('ServiceName')}
              onChange={(ServiceName) => {
                creating.clearField('ServiceName');
                setDraft({ ...draft, ServiceName });
              }}
            />
            <Select
              label="Tier"
              value={draft.ServiceTier}
              options={TIERS}
              error={creating.fieldError('ServiceTier')}
              onChange={(ServiceTier) => {
                creating.clearField('ServiceTier');
                setDraft({ ...draft, ServiceTier });
              }}
            />
            <Field
              label="Admin e-mail"
              type="email"
              required
              value={draft.AdminMail}
              error={creating.fieldError('AdminMail')}
              onChange={(AdminMail) => {
                creating.clearField('AdminMail');
                setDraft({ ...draft, AdminMail });
              }}
            />
            <button type="submit" disabled={creating.busy}>
              Create endpoint
            </button>
          </form>
          <p className="muted">
            The service name becomes part of the endpoint’s address: 2 to 50 letters, digits or
            hyphens, starting with a letter. Unless your operator set other limits, Developer takes
            10 requests a second, Standard 100 and Premium 1,000.
          </p>
        </Section>
      )}
      {endpoint.data === null && !editable && <p>No integration endpoint.</p>}
    </div>
  );
}
