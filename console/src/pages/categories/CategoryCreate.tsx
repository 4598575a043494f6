// Create a category: its name and its place (a parent, or the top level). After each category
// the form starts again at the top level, so that the next one does not nest by mistake.
import { useEffect } from 'react';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { Section } from '../../components.tsx';
import { ApiFormFrame, SelectField, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';

import { CATEGORY_LABELS, TOP } from './categories-api.ts';

const CreateSchema = v.object({
  Name: v.pipe(v.string(), v.trim()),
  ParentCategoryId: v.pipe(
    v.string(),
    v.transform((id) => (id === TOP ? null : Number(id))),
  ),
});
const EMPTY = { Name: '', ParentCategoryId: TOP };

export function CategoryCreate(props: {
  parents: { value: string; label: string }[];
  onCreated: (category: { Id: number; Name: string }) => Promise<void>;
  /** Another action started: this form's failure is no longer the one to show. */
  clearSignal: number;
}) {
  const creating = useApiForm({
    schema: CreateSchema,
    defaultValues: EMPTY,
    labels: CATEGORY_LABELS,
  });
  const { form } = creating;
  // A duplicate name is one at this place: another place may take it.
  const parent = form.watch('ParentCategoryId');
  useEffect(() => form.clearErrors('Name'), [parent]);
  useEffect(() => creating.clearFailure(), [props.clearSignal]);
  const create = creating.submitWith(async (body) => {
    const created = await call(client.POST('/private/catalog/category', { body }));
    form.reset(EMPTY);
    await props.onCreated(created);
  });
  return (
    <Section title="New category">
      <ApiFormFrame api={creating} onSubmit={create} className="row">
        <TextField name="Name" label="Name" required />
        <SelectField
          name="ParentCategoryId"
          label="Parent"
          empty="(top level)"
          options={props.parents}
        />
        <SubmitButton>Create category</SubmitButton>
      </ApiFormFrame>
    </Section>
  );
}
