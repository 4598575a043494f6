// Start an import: the file (JSONL or CSV: the format from its name, or chosen), what happens to
// a row with a problem, and whether what the file names but the catalog lacks is created. The
// file is sent as the body of POST /private/catalog/imports.
import { useEffect, type RefObject } from 'react';
import { useFormContext } from 'react-hook-form';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { Section } from '../../components.tsx';
import { ApiFormFrame, SelectField, SubmitButton } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { ImportJob } from './import-results.ts';

const MIME_TYPES = { jsonl: 'application/x-ndjson', csv: 'text/csv' } as const;
const ImportSchema = v.object({
  file: v.custom<FileList>((files) => files instanceof FileList),
  format: v.picklist(['jsonl', 'csv']),
  errorPolicy: v.picklist(['RejectAll', 'SkipFailedRows']),
  createMissing: v.boolean(),
});
type Format = keyof typeof MIME_TYPES;

export function useImportForm() {
  return useApiForm({
    schema: ImportSchema,
    defaultValues: { format: 'jsonl', errorPolicy: 'RejectAll', createMissing: false },
    labels: { format: 'Format', errorPolicy: 'When a row has a problem' },
  });
}
export type ImportFormState = ReturnType<typeof useImportForm>;

/** The format a file's name or type says. */
const formatOf = (file: File): Format =>
  /\.csv$/i.test(file.name) || file.type === 'text/csv' ? 'csv' : 'jsonl';

/** The format follows the file chosen (it can be chosen after). */
function FormatFollowsFile() {
  const { watch, setValue } = useFormContext<{ file?: FileList; format: Format }>();
  const files = watch('file');
  useEffect(() => {
    const file = files?.[0];
    if (file) setValue('format', formatOf(file));
  }, [files, setValue]);
  return null;
}

export function ImportForm(props: {
  state: ImportFormState;
  fileRef: RefObject<HTMLInputElement | null>;
  onStarted: (job: ImportJob, file: File) => Promise<void>;
}) {
  const { state } = props;
  const { register, watch } = state.form;
  const files = watch('file');
  const fileField = register('file');
  const start = state.submitWith(async ({ file, format, errorPolicy, createMissing }) => {
    const chosen = file[0];
    if (!chosen) return;
    const started = await call(
      client.POST('/private/catalog/imports', {
        params: { query: { format, errorPolicy, createMissing } },
        body: chosen,
        bodySerializer: (body) => body,
        headers: { 'Content-Type': MIME_TYPES[format] },
      }),
    );
    await props.onStarted(started, chosen);
  });
  return (
    <Section title="Import a file">
      <ApiFormFrame api={state} onSubmit={start} className="bulk-form" banner={false}>
        <FormatFollowsFile />
        <div className="field">
          <label htmlFor="import-file">File (JSONL or CSV)</label>
          <input
            id="import-file"
            type="file"
            accept=".jsonl,.ndjson,.json,.csv,.txt,application/x-ndjson,text/csv"
            required
            {...fileField}
            ref={(element) => {
              fileField.ref(element);
              props.fileRef.current = element;
            }}
          />
        </div>
        <SelectField
          name="format"
          label="Format"
          options={[
            { value: 'jsonl', label: 'JSONL: one JSON item a line' },
            { value: 'csv', label: 'CSV: a header row, one item a row' },
          ]}
        />
        <fieldset className="choices">
          <legend>When a row has a problem</legend>
          <label>
            <input type="radio" value="RejectAll" {...register('errorPolicy')} /> Import nothing:
            check every row first, and import only if all are right
          </label>
          <label>
            <input type="radio" value="SkipFailedRows" {...register('errorPolicy')} /> Skip that row
            and import the others
          </label>
        </fieldset>
        <label className="check">
          <input type="checkbox" {...register('createMissing')} /> Create the categories, brands,
          tags, price types and attribute types the file names but the catalog lacks
        </label>
        <p>
          {files?.length ? (
            <SubmitButton>Start import</SubmitButton>
          ) : (
            <button type="submit" disabled>
              Start import
            </button>
          )}
        </p>
      </ApiFormFrame>
    </Section>
  );
}
