// Edit a category in place: its name and descriptions, one PATCH; Escape or Cancel closes it.
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { ApiFormFrame, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { Category } from '../../types.ts';
import { CATEGORY_LABELS } from './categories-api.ts';

const optional = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => text || null),
);
const EditSchema = v.object({
  Name: v.pipe(v.string(), v.trim()),
  ShortDescription: optional,
  LongDescription: optional,
});

export function CategoryEdit(props: {
  category: Category;
  onSaved: (saved: { Id: number; Name: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const { category } = props;
  const editing = useApiForm({
    schema: EditSchema,
    defaultValues: {
      Name: category.Name,
      ShortDescription: category.ShortDescription ?? '',
      LongDescription: category.LongDescription ?? '',
    },
    labels: CATEGORY_LABELS,
  });
  const save = editing.submitWith(async (body) => {
    const saved = await call(
      client.PATCH('/private/catalog/category/{id}', {
        params: { path: { id: category.Id } },
        body,
      }),
    );
    await props.onSaved(saved);
  });
  return (
    <div
      className="node-edit"
      data-editing=""
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        props.onCancel();
      }}
    >
      <ApiFormFrame api={editing} onSubmit={save} label={`Edit category ${category.Name}`}>
        <TextField name="Name" label={`Name of ${category.Name}`} required />
        <TextField
          name="ShortDescription"
          label={`Short description of ${category.Name}`}
          multiline
        />
        <TextField
          name="LongDescription"
          label={`Long description of ${category.Name}`}
          multiline
        />
        <SubmitButton>Save</SubmitButton>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </ApiFormFrame>
    </div>
  );
}
