// Create the integration endpoint: its service name (part of its address), tier and the admin
// e-mail address told when it is ready.
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { Section } from '../../components.tsx';
import { ApiFormFrame, SelectField, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import { TIER_NAMES } from './endpoint-api.ts';

const TIERS = TIER_NAMES.map((label, value) => ({ value: String(value), label }));
const LABELS = { ServiceName: 'Service name', ServiceTier: 'Tier', AdminMail: 'Admin e-mail' };

const EndpointSchema = v.object({
  ServiceName: v.pipe(v.string(), v.trim()),
  ServiceTier: v.pipe(v.string(), v.transform(Number)),
  AdminMail: v.pipe(v.string(), v.trim()),
});

export function EndpointCreate({ onCreated }: { onCreated: () => Promise<void> }) {
  const creating = useApiForm({
    schema: EndpointSchema,
    defaultValues: { ServiceName: '', ServiceTier: '0', AdminMail: '' },
    labels: LABELS,
  });
  const create = creating.submitWith(async (body) => {
    await call(client.POST('/management/integration/endpoint', { body }));
    await onCreated();
  });
  return (
    <Section title="Create the endpoint">
      <ApiFormFrame api={creating} onSubmit={create} className="row">
        <TextField name="ServiceName" label="Service name" required />
        <SelectField name="ServiceTier" label="Tier" options={TIERS} />
        <TextField name="AdminMail" label="Admin e-mail" type="email" required />
        <SubmitButton>Create endpoint</SubmitButton>
      </ApiFormFrame>
      <p className="muted">
        The service name becomes part of the endpoint’s address: 2 to 50 letters, digits or hyphens,
        starting with a letter. Unless your operator set other limits, Developer takes 10 requests a
        second, Standard 100 and Premium 1,000.
      </p>
    </Section>
  );
}
