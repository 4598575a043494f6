// Catalog import: choose a JSONL or CSV file, start the import, follow it live (polled every
// second) with its records done out of the file's total, see the rows that failed in plain words,
// cancel it while it runs; the past imports below, each one can be shown again.
import { useState, type FormEvent, type RefObject } from 'react';
import { call, client } from '../../api.ts';
import {
  ErrorMessage,
  Loading,
  PagedTable,
  PageTitle,
  Progress,
  Section,
  Select,
  useAction,
  useFocusAfter,
  useLoad,
} from '../../components.tsx';
import { fieldSentence, labelOf } from '../../error-messages.ts';
import { useAccess } from '../../session.tsx';
import type { paths } from '@omnichannel/management-client';
import { count, countRecords, plural, useFollowedJob, when } from './bulk-jobs.ts';
import './bulk.css';

type ImportJob =
  paths['/private/catalog/imports/{id}']['get']['responses'][200]['content']['application/json'];
type Format = ImportJob['Format'];
type Policy = ImportJob['ErrorPolicy'];

const PAGE = 10;
/** Failed rows shown at most (the job counts them all). */
const SHOWN_FAILURES = 100;
const MIME_TYPES: Record<Format, string> = { jsonl: 'application/x-ndjson', csv: 'text/csv' };

const running = (job: ImportJob) => job.State === 'Queued' || job.State === 'Running';

interface FailedRow {
  line: number;
  field: string;
  problem: string;
}

/** What the page learnt about the job shown, besides the job itself. */
interface Extra {
  /** Records in the file, when this page read it (an import started here). */
  total?: number;
  failures?: FailedRow[];
}
type Shown = Extra & { job: ImportJob };

/** A field error of a row in the retailer's words. */
function failedRow(line: number, field: string, message: string): FailedRow {
  if (field === '(line)' || field === '')
    return {
      line,
      field: 'Whole line',
      problem: `${message.charAt(0).toUpperCase()}${message.slice(1)}.`,
    };
  return { line, field: labelOf(field), problem: fieldSentence(field, message) };
}

/** The failed rows of an import (the first SHOWN_FAILURES), read from its JSONL results. */
async function failedRows(id: number): Promise<FailedRow[]> {
  const stream = await call(
    client.GET('/private/catalog/imports/{id}/results', {
      params: { path: { id } },
      parseAs: 'stream',
    }),
  );
  const rows: FailedRow[] = [];
  if (!stream) return rows;
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  const take = (line: string) => {
    if (!line.trim()) return;
    const result = JSON.parse(line) as {
      Line: number;
      Status: string;
      Errors?: { Field: string; Message: string }[];
    };
    if (result.Status !== 'Failed') return;
    for (const error of result.Errors ?? [])
      rows.push(failedRow(result.Line, error.Field, error.Message));
  };
  while (rows.length < SHOWN_FAILURES) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(take);
  }
  take(rest);
  await reader.cancel();
  return rows.slice(0, SHOWN_FAILURES);
}

/** The state of an import in a sentence. */
function stateSentence(job: ImportJob): string {
  switch (job.State) {
    case 'Queued':
      return 'Waiting to start…';
    case 'Running':
      return job.Phase === 'Validating' ? 'Checking every row before importing…' : 'Importing…';
    case 'Succeeded':
      return job.RowsFailed > 0
        ? `Done: ${plural(job.RowsWritten, 'record')} imported, ${plural(job.RowsFailed, 'row')} skipped because of problems.`
        : `Done: ${plural(job.RowsWritten, 'record')} imported.`;
    case 'Cancelled':
      return `Cancelled: ${plural(job.RowsWritten, 'record')} had been imported before it stopped.`;
    case 'Failed':
      if (job.ErrorPolicy === 'RejectAll' && job.RowsWritten === 0 && job.RowsFailed > 0)
        return `Nothing was imported: ${plural(job.RowsFailed, 'row')} ${job.RowsFailed === 1 ? 'has a problem' : 'have problems'}. Fix ${job.RowsFailed === 1 ? 'it' : 'them'} in the file and import it again.`;
      return `The import failed: ${job.Error ?? 'no reason was given.'}`;
  }
}

/** Short words for the list of past imports. */
const RESULT = {
  Queued: 'Waiting',
  Running: 'Running',
  Succeeded: 'Done',
  Failed: 'Failed',
  Cancelled: 'Cancelled',
} as const;

function JobStatus(props: {
  shown: Shown;
  statusRef: RefObject<HTMLParagraphElement | null>;
  onCancel?: () => void;
  busy: boolean;
}) {
  const { shown, statusRef, onCancel, busy } = props;
  const { job, total, failures } = shown;
  const of = total !== undefined ? ` of ${count(total)}` : '';
  return (
    <>
      <p
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className={`job-state ${job.State.toLowerCase()}`}
        data-state={job.State}
      >
        {stateSentence(job)}
      </p>
      {running(job) && (
        <Progress value={job.Percentage / 100} label={`Import ${job.Id}: share of the file read`} />
      )}
      <dl className="facts job-facts">
        <dt>Records {job.Phase === 'Validating' && running(job) ? 'checked' : 'done'}</dt>
        <dd data-records>
          {count(job.RowsRead)}
          {of}
        </dd>
        <dt>Imported</dt>
        <dd>{count(job.RowsWritten)}</dd>
        <dt>With problems</dt>
        <dd>{count(job.RowsFailed)}</dd>
        <dt>File</dt>
        <dd>
          {job.Format === 'csv' ? 'CSV' : 'JSONL'},{' '}
          {job.ErrorPolicy === 'RejectAll' ? 'all rows or none' : 'rows with problems skipped'}
          {job.CreateMissing ? ', missing categories and brands created' : ''}
        </dd>
        <dt>Started</dt>
        <dd>{when(job.StartedDate ?? job.CreatedDate)}</dd>
      </dl>
      {onCancel && running(job) && (
        <p className="actions">
          <button type="button" className="danger" onClick={onCancel} disabled={busy}>
            Cancel import
          </button>
        </p>
      )}
      {failures && failures.length > 0 && (
        <table className="cards">
          <caption>
            Rows with problems
            {job.RowsFailed > failures.length ? ` (the first ${failures.length})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((row, i) => (
              <tr key={i}>
                <td data-label="Line">{row.line}</td>
                <td data-label="Field">{row.field}</td>
                <td data-label="Problem">{row.problem}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export default function ImportPage() {
  const editable = useAccess().can('catalog', 'write');
  const action = useAction({ format: 'Format', errorPolicy: 'When a row has a problem' });
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<Format>('jsonl');
  const [policy, setPolicy] = useState<Policy>('RejectAll');
  const [createMissing, setCreateMissing] = useState(false);
  const [skip, setSkip] = useState(0);
  const [extra, setExtra] = useState<Extra & { id: number }>();
  /** Adds to what is known of job `id` (what was known of another job is dropped). */
  const learn = (id: number, more: Extra) =>
    setExtra((previous) => ({ ...(previous?.id === id ? previous : {}), ...more, id }));
  const [statusRef, focusStatus] = useFocusAfter<HTMLParagraphElement>();
  const past = useLoad(
    () => call(client.GET('/private/catalog/imports', { params: { query: { skip, take: PAGE } } })),
    [skip],
  );

  const fetchJob = (id: number) =>
    call(client.GET('/private/catalog/imports/{id}', { params: { path: { id } } }));
  const ended = (job: ImportJob) => {
    past.reload();
    focusStatus();
    if (job.RowsFailed > 0)
      failedRows(job.Id).then(
        (failures) => learn(job.Id, { failures }),
        (failure: unknown) => followed.setError(failure),
      );
  };
  const followed = useFollowedJob(fetchJob, running, ended);
  const job = followed.job;

  const choose = (chosen: File | undefined) => {
    setFile(chosen);
    if (chosen)
      setFormat(/\.csv$/i.test(chosen.name) || chosen.type === 'text/csv' ? 'csv' : 'jsonl');
  };

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    void action.run(async () => {
      const started = await call(
        client.POST('/private/catalog/imports', {
          params: { query: { format, errorPolicy: policy, createMissing } },
          body: file,
          bodySerializer: (body) => body,
          headers: { 'Content-Type': MIME_TYPES[format] },
        }),
      );
      followed.setJob(started);
      past.reload();
      focusStatus();
      countRecords(file, format).then(
        (total) => learn(started.Id, { total }),
        () => undefined,
      );
    });
  };

  const cancel = () =>
    void action.run(async () => {
      if (!job) return;
      const cancelled = await call(
        client.POST('/private/catalog/imports/{id}/cancel', { params: { path: { id: job.Id } } }),
      );
      followed.setJob(cancelled);
      past.reload();
      focusStatus();
    });

  const show = (id: number) =>
    void action.run(async () => {
      const chosen = await fetchJob(id);
      followed.setJob(chosen);
      focusStatus();
      if (!running(chosen) && chosen.RowsFailed > 0)
        learn(chosen.Id, { failures: await failedRows(chosen.Id) });
    });

  return (
    <div className="bulk-page">
      <PageTitle>Catalog import</PageTitle>
      <p className="intro">
        Add many items at once from a file: <strong>JSONL</strong> (one item a line, as JSON) or{' '}
        <strong>CSV</strong> (a header row naming the columns, then one item a row). Each item needs
        a <code>Title</code>; <code>SKU</code>, <code>Brand</code>, <code>CategoryPath</code>,{' '}
        <code>Prices</code>, <code>Tags</code> and the other item fields are optional. A file from{' '}
        <em>Catalog export</em> has this layout.
      </p>
      <ErrorMessage error={action.message ?? followed.error} />
      {editable && (
        <Section title="Import a file">
          <form onSubmit={start} className="bulk-form">
            <div className="field">
              <label htmlFor="import-file">File (JSONL or CSV)</label>
              <input
                id="import-file"
                type="file"
                accept=".jsonl,.ndjson,.json,.csv,.txt,application/x-ndjson,text/csv"
                required
                onChange={(event) => choose(event.target.files?.[0])}
              />
            </div>
            <Select
              label="Format"
              value={format}
              onChange={(value) => setFormat(value === 'csv' ? 'csv' : 'jsonl')}
              options={[
                { value: 'jsonl', label: 'JSONL: one JSON item a line' },
                { value: 'csv', label: 'CSV: a header row, one item a row' },
              ]}
              error={action.fieldError('format')}
            />
            <fieldset className="choices">
              <legend>When a row has a problem</legend>
              <label>
                <input
                  type="radio"
                  name="policy"
                  checked={policy === 'RejectAll'}
                  onChange={() => setPolicy('RejectAll')}
                />{' '}
                Import nothing: check every row first, and import only if all are right
              </label>
              <label>
                <input
                  type="radio"
                  name="policy"
                  checked={policy === 'SkipFailedRows'}
                  onChange={() => setPolicy('SkipFailedRows')}
                />{' '}
                Skip that row and import the others
              </label>
            </fieldset>
            <label className="check">
              <input
                type="checkbox"
                checked={createMissing}
                onChange={(event) => setCreateMissing(event.target.checked)}
              />{' '}
              Create the categories, brands, tags, price types and attribute types the file names
              but the catalog lacks
            </label>
            <p>
              <button type="submit" disabled={!file || action.busy}>
                Start import
              </button>
            </p>
          </form>
        </Section>
      )}
      {job && (
        <Section title={`Import ${job.Id}`}>
          <JobStatus
            shown={{ ...(extra?.id === job.Id ? extra : {}), job }}
            statusRef={statusRef}
            busy={action.busy}
            {...(editable ? { onCancel: cancel } : {})}
          />
        </Section>
      )}
      <Section title="Past imports">
        <ErrorMessage error={past.error} />
        {!past.data && past.loading && <Loading />}
        {past.data &&
          (past.data.TotalCount === 0 ? (
            <p>No file has been imported yet.</p>
          ) : (
            <PagedTable
              caption="Imports"
              total={past.data.TotalCount}
              headers={['Import', 'Result', 'Records']}
              skip={skip}
              take={PAGE}
              onPage={setSkip}
            >
              {past.data.Results.map((row) => (
                <tr key={row.Id}>
                  <td data-label="Import">
                    <button
                      type="button"
                      className="link"
                      onClick={() => show(row.Id)}
                      aria-label={`Show import ${row.Id}`}
                    >
                      Import {row.Id}
                    </button>
                    <br />
                    <span className="muted">{when(row.CreatedDate)}</span>
                  </td>
                  <td data-label="Result">{RESULT[row.State]}</td>
                  <td data-label="Records">
                    {count(row.RowsWritten)} imported
                    {row.RowsFailed > 0 && (
                      <>
                        <br />
                        {count(row.RowsFailed)} with problems
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </PagedTable>
          ))}
      </Section>
    </div>
  );
}
