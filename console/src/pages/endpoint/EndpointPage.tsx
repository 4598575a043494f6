// The tenant's integration endpoint: what it is and when to create one; create it, follow its
// status live until it is Live or Failed (asked again every two seconds while in creation),
// delete it. Its subscription key is shown once: when the endpoint goes live while the page
// follows it, or when a new key is issued; once dismissed it is gone, and only issuing a new one
// (which stops the current one) gives another.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { focusLater, Loading, PageTitle, Section } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import { ActionStatus } from '../ActionStatus.tsx';
import '../admin-pages.css';
import { SecretNotice } from '../SecretNotice.tsx';
import { EndpointCreate } from './EndpointCreate.tsx';
import {
  currentKey,
  deleteEndpoint,
  endpointKey,
  loadEndpoint,
  newKey,
  STATUS,
  TIER_NAMES,
} from './endpoint-api.ts';

const POLL_MS = 2000;

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
  const queries = useQueryClient();
  const endpoint = useQuery({
    queryKey: endpointKey,
    queryFn: loadEndpoint,
    // While provisioning runs, ask again every two seconds; the status changes in place.
    refetchInterval: (query) => (query.state.data?.Status === 1 ? POLL_MS : false),
  });
  const [key, setKey] = useState<string>();
  const [status, setStatus] = useState<string>();
  const resultId = useId();
  const headingId = useId();
  // Whether this page saw the endpoint in creation: its key is shown once when it goes live.
  const followed = useRef(false);
  const current = endpoint.data;
  const state = current?.Status;
  const focusResult = () => focusLater(() => document.getElementById(resultId));

  const firstKey = useMutation({ mutationFn: currentKey, onSuccess: setKey });
  const issue = useMutation({ mutationFn: newKey, onSuccess: setKey, onError: focusResult });
  const remove = useMutation({
    mutationFn: deleteEndpoint,
    onSuccess: async () => {
      setKey(undefined);
      followed.current = false;
      setStatus('The integration endpoint was deleted.');
      await queries.invalidateQueries({ queryKey: endpointKey });
    },
    onSettled: focusResult,
  });

  useEffect(() => {
    if (state === 1) followed.current = true;
    // Gone live while followed: its first key, shown this once.
    if (state === 2 && followed.current) {
      followed.current = false;
      firstKey.mutate();
    }
  }, [state]);

  const created = async () => {
    setStatus(undefined);
    followed.current = true;
    await queries.invalidateQueries({ queryKey: endpointKey });
    focusLater(() => document.querySelector('[data-status]'));
  };
  const confirmIssue = () => {
    const question =
      'Issue a new subscription key? The current key stops working at once for every system that uses it.';
    if (!confirm(question)) return;
    setStatus(undefined);
    issue.mutate();
  };
  const confirmDelete = () => {
    if (!confirm('Delete the integration endpoint? Systems that use it can no longer connect.'))
      return;
    setStatus(undefined);
    remove.mutate();
  };
  const done = () => {
    setKey(undefined);
    focusLater(() => document.getElementById(headingId));
  };
  const busy = issue.isPending || remove.isPending;

  return (
    <div className="endpoint-page">
      <PageTitle>Integration endpoint</PageTitle>
      <WhatIsIt />
      <ActionStatus
        id={resultId}
        text={status}
        error={endpoint.error ?? firstKey.error ?? issue.error ?? remove.error ?? undefined}
      />
      {endpoint.isPending && <Loading />}
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
        <section className="panel" aria-labelledby={headingId}>
          <h2 id={headingId} tabIndex={-1}>
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
              <button type="button" onClick={confirmIssue} disabled={busy}>
                Issue a new subscription key
              </button>
            )}
            {editable && (
              <button type="button" className="danger" onClick={confirmDelete} disabled={busy}>
                Delete endpoint
              </button>
            )}
          </div>
        </section>
      )}
      {endpoint.data !== undefined && (!current || current.Status === 3) && editable && (
        <EndpointCreate onCreated={created} />
      )}
      {endpoint.data === null && !editable && <p>No integration endpoint.</p>}
    </div>
  );
}
