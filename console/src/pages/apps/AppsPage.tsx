// OAuth apps of the tenant: create one, rotate its secret, delete it. A secret is shown once, on
// create or rotation, until Done; nothing keeps it, and only rotating makes a new one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { focusLater, PageTitle } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import type { App } from '../../types.ts';
import { ActionStatus } from '../ActionStatus.tsx';
import '../admin-pages.css';
import { SecretNotice } from '../SecretNotice.tsx';
import { AppCreate } from './AppCreate.tsx';
import { AppList } from './AppList.tsx';
import { appKeys, deleteApp, loadApps, rotateSecret } from './apps-api.ts';

export default function AppsPage() {
  const editable = useAccess().can('apps', 'write');
  const queries = useQueryClient();
  const [skip, setSkip] = useState(0);
  const list = useQuery({ queryKey: appKeys.page(skip), queryFn: () => loadApps(skip) });
  // The one place a secret lives, until Done (or leaving the page).
  const [secret, setSecret] = useState<App>();
  const [status, setStatus] = useState<string>();
  const listResult = useId();
  const focusResult = () => focusLater(() => document.getElementById(listResult));

  const rotate = useMutation({
    mutationFn: rotateSecret,
    onSuccess: (app) => setSecret(app),
    onError: focusResult,
  });
  const remove = useMutation({
    mutationFn: deleteApp,
    onSuccess: async (_, app) => {
      if (secret?.ApplicationId === app.ApplicationId) setSecret(undefined);
      setStatus(`App ${app.Name} deleted.`);
      await queries.invalidateQueries({ queryKey: appKeys.all });
    },
    onSettled: focusResult,
  });
  const confirmRotate = (app: App) => {
    const question = `Rotate the secret of ${app.Name}? Its current secret and tokens stop working at once.`;
    if (!confirm(question)) return;
    setStatus(undefined);
    remove.reset();
    rotate.mutate(app);
  };
  const confirmDelete = (app: App) => {
    if (!confirm(`Delete the app ${app.Name}? Its tokens stop working at once.`)) return;
    setStatus(undefined);
    rotate.reset();
    remove.mutate(app);
  };
  const done = () => {
    const shown = secret;
    setSecret(undefined);
    if (shown)
      focusLater(() => document.querySelector(`tr[data-app="${CSS.escape(shown.ApplicationId)}"]`));
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
        <AppCreate
          onCreated={(app) => {
            setStatus(undefined);
            setSecret(app);
          }}
        />
      )}
      <ActionStatus
        id={listResult}
        text={status}
        error={list.error ?? rotate.error ?? remove.error ?? undefined}
      />
      <AppList
        list={list}
        skip={skip}
        onPage={setSkip}
        editable={editable}
        busy={rotate.isPending || remove.isPending}
        onRotate={confirmRotate}
        onDelete={confirmDelete}
      />
    </div>
  );
}
