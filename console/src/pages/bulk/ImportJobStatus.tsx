// An import as it runs and once it ended: its state in a sentence (a warning when rows were left
// out: "3 of 9 rows imported, 6 with problems."), records done of the file's total, the counts,
// Cancel while it runs, and its rows with problems: line, item, field and what to do.
import type { RefObject } from 'react';
import { Progress } from '../../components.tsx';
import { count, plural, when } from './bulk-jobs.ts';
import { running, type FailedRow, type ImportJob } from './import-results.ts';

/** What the page learnt about the job shown, besides the job itself. */
export interface Extra {
  /** Records in the file, when this page read it (an import started here). */
  total?: number;
  failures?: FailedRow[];
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
        ? `${count(job.RowsWritten)} of ${plural(job.RowsRead, 'row')} imported, ${count(job.RowsFailed)} with problems. The rows with problems are listed below.`
        : `Done: ${plural(job.RowsWritten, 'record')} imported.`;
    case 'Cancelled':
      return `Cancelled: ${plural(job.RowsWritten, 'record')} had been imported before it stopped.`;
    case 'Failed':
      if (job.ErrorPolicy === 'RejectAll' && job.RowsWritten === 0 && job.RowsFailed > 0)
        return `Nothing was imported: ${plural(job.RowsFailed, 'row')} ${job.RowsFailed === 1 ? 'has a problem' : 'have problems'}. Fix ${job.RowsFailed === 1 ? 'it' : 'them'} in the file and import it again.`;
      return `The import failed: ${job.Error ?? 'no reason was given.'}`;
  }
}

/** The sentence's style: done cleanly, done with rows left out, or failed. */
const tone = (job: ImportJob) =>
  job.State === 'Succeeded' && job.RowsFailed > 0 ? 'warning' : job.State.toLowerCase();

export function ImportJobStatus(props: {
  job: ImportJob;
  extra: Extra;
  statusRef: RefObject<HTMLParagraphElement | null>;
  onCancel?: (() => void) | undefined;
  /** Ticks "create what the catalog lacks" in the form, for the next import of the file. */
  onCreateMissing?: (() => void) | undefined;
  busy: boolean;
}) {
  const { job, extra, statusRef, onCancel, busy } = props;
  const { total, failures } = extra;
  const of = total !== undefined ? ` of ${count(total)}` : '';
  const lacking = (failures ?? []).some((row) => row.missing) && !job.CreateMissing;
  return (
    <>
      <p
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className={`job-state ${tone(job)}`}
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
      {lacking && props.onCreateMissing && (
        <div className="create-missing-hint">
          <p>
            Some rows name a brand, category, tag, price type or attribute type that the catalog
            lacks. Create them first, or import the file again with “Create the categories, brands,
            tags, price types and attribute types the file names but the catalog lacks” ticked.
          </p>
          <button type="button" onClick={props.onCreateMissing}>
            Tick it and choose the file again
          </button>
        </div>
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
              <th scope="col">Item</th>
              <th scope="col">Field</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((row, i) => (
              <tr key={i}>
                <td data-label="Line">{row.line}</td>
                <td data-label="Item">{row.item}</td>
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
