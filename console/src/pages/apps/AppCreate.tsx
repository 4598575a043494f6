// Create an app: name, description, type. The API accepts apps of one name (an app is its
// ApplicationId); before creating, the name is looked up among the tenant's apps and, when it is
// taken (whatever the case and surrounding spaces), a warning next to the name offers "Create
// anyway" (which takes the focus); changing the name takes the warning away.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { focusLater, Section } from '../../components.tsx';
import { ApiFormFrame, SelectField, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { App } from '../../types.ts';
import { appKeys, takenName } from './apps-api.ts';

const TYPES = [
  { value: '1', label: 'Consumer (public API)' },
  { value: '2', label: 'Private (public and private API)' },
  { value: '3', label: 'Management (everything)' },
  { value: '4', label: 'Device (public API, device identity)' },
];
const LABELS = { Name: 'App name', Description: 'Description', ApplicationTypeId: 'Type' };

const AppSchema = v.object({
  Name: v.pipe(v.string(), v.trim()),
  Description: v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => text || null),
  ),
  ApplicationTypeId: v.pipe(v.string(), v.transform(Number)),
});

export function AppCreate({ onCreated }: { onCreated: (app: App) => void }) {
  const queries = useQueryClient();
  const creating = useApiForm({
    schema: AppSchema,
    defaultValues: { Name: '', Description: '', ApplicationTypeId: '2' },
    labels: LABELS,
  });
  // The tenant's app name that the typed name repeats, once the person was told.
  const [taken, setTaken] = useState<{ typed: string; existing: string }>();
  const typedName = creating.form.watch('Name');
  const warned = taken !== undefined && taken.typed === typedName ? taken.existing : undefined;
  const warningId = useId();
  const anyway = useRef<HTMLButtonElement>(null);

  const create = (confirmed: boolean) =>
    creating.submitWith(async (body) => {
      setTaken(undefined);
      const typed = creating.form.getValues('Name');
      if (!confirmed && body.Name) {
        const existing = await takenName(body.Name);
        // A look-up that comes back after the name changed says nothing.
        if (creating.form.getValues('Name') !== typed) return;
        if (existing !== undefined) {
          setTaken({ typed, existing });
          focusLater(() => anyway.current);
          return;
        }
      }
      const app = await call(client.POST('/management/oauth/apps', { body }));
      creating.form.reset({
        Name: '',
        Description: '',
        ApplicationTypeId: String(body.ApplicationTypeId),
      });
      await queries.invalidateQueries({ queryKey: appKeys.all });
      onCreated(app);
    });

  return (
    <Section title="New app">
      <ApiFormFrame api={creating} onSubmit={create(false)} className="row">
        <div className={warned === undefined ? 'app-name' : 'app-name warned'}>
          <TextField name="Name" label="App name" required />
          {warned !== undefined && (
            <div className="name-warning">
              <p id={warningId}>
                An app named “{warned}” already exists. Apps are told apart by name in lists; choose
                another name, or create it anyway.
              </p>
              <button
                type="button"
                ref={anyway}
                aria-describedby={warningId}
                disabled={creating.busy}
                onClick={() => void create(true)()}
              >
                Create anyway
              </button>
            </div>
          )}
        </div>
        <TextField name="Description" label="Description" />
        <SelectField name="ApplicationTypeId" label="Type" options={TYPES} />
        <SubmitButton>Create app</SubmitButton>
      </ApiFormFrame>
    </Section>
  );
}
