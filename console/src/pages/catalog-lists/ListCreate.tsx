// Create an entry of a list (a brand, a tag, an attribute type, a price type): its fields, one
// POST; a field the API refuses is said under it, and the focus goes there.
import { useEffect } from 'react';
import * as v from 'valibot';
import { Section } from '../../components.tsx';
import { ApiFormFrame, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { ListKind, Row } from './list-kinds.ts';

export const ValuesSchema = v.record(v.string(), v.string());

/** The empty values of a kind's fields. */
export const emptyOf = (kind: ListKind) => Object.fromEntries(kind.fields.map((f) => [f.name, '']));
export const labelsOf = (kind: ListKind) =>
  Object.fromEntries(kind.fields.map((f) => [f.name, f.label]));

export function ListCreate(props: {
  kind: ListKind;
  onCreated: (row: Row) => Promise<void>;
  /** Another action started: this form's failure is no longer the one to show. */
  clearSignal: number;
}) {
  const { kind } = props;
  const creating = useApiForm({
    schema: ValuesSchema,
    defaultValues: emptyOf(kind),
    labels: labelsOf(kind),
  });
  useEffect(() => creating.clearFailure(), [props.clearSignal]);
  const create = creating.submitWith(async (values) => {
    const created = await kind.create(values);
    creating.form.reset(emptyOf(kind));
    await props.onCreated(created);
  });
  return (
    <Section title={`New ${kind.singular}`}>
      <ApiFormFrame api={creating} onSubmit={create} className="row">
        {kind.fields.map((f) => (
          <TextField key={f.name} name={f.name} label={f.label} required={f.required} />
        ))}
        <SubmitButton>Create {kind.singular}</SubmitButton>
      </ApiFormFrame>
    </Section>
  );
}
