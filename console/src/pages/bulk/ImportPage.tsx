// Catalog import: choose a JSONL or CSV file, start the import, follow it live (polled every
// second) with its records done out of the file's total, see the rows with problems as a
// retailer can act on them (the line, the item, the value at fault and what to do), cancel it
// while it runs; the past imports below, each one can be shown again.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { call, client } from '../../api.ts';
import { ErrorMessage, focusLater, PageTitle, Section, useFocusAfter } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import { countRecords, useFollowedJob } from './bulk-jobs.ts';
import './bulk.css';
import { ImportForm, useImportForm } from './ImportForm.tsx';
import { ImportJobStatus, type Extra } from './ImportJobStatus.tsx';
import { ImportList, PAST_PAGE } from './ImportList.tsx';
import { failedRows, fetchImport, importKeys, running, type ImportJob } from './import-results.ts';

export default function ImportPage() {
  const editable = useAccess().can('catalog', 'write');
  const queries = useQueryClient();
  const importForm = useImportForm();
  const fileInput = useRef<HTMLInputElement>(null);
  const [skip, setSkip] = useState(0);
  const past = useQuery({
    queryKey: importKeys.page(skip),
    queryFn: () =>
      call(
        client.GET('/private/catalog/imports', { params: { query: { skip, take: PAST_PAGE } } }),
      ),
  });
  const [extra, setExtra] = useState<Extra & { id: number }>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  /** Adds to what is known of job `id` (what was known of another job is dropped). */
  const learn = (id: number, more: Extra) =>
    setExtra((previous) => ({ ...(previous?.id === id ? previous : {}), ...more, id }));
  const [statusRef, focusStatus] = useFocusAfter<HTMLParagraphElement>();
  const refreshList = () => queries.invalidateQueries({ queryKey: importKeys.all });

  const ended = (job: ImportJob) => {
    void refreshList();
    focusStatus();
    if (job.RowsFailed > 0)
      failedRows(job.Id).then((failures) => learn(job.Id, { failures }), setFailure);
  };
  const followed = useFollowedJob(fetchImport, running, ended);
  const job = followed.job;

  const started = async (startedJob: ImportJob, file: File) => {
    setFailure(undefined);
    followed.setJob(startedJob);
    void refreshList();
    focusStatus();
    countRecords(file, importForm.form.getValues('format')).then(
      (total) => learn(startedJob.Id, { total }),
      () => undefined,
    );
  };
  /** Runs an action on the job shown; its failure is said above the form. */
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const cancel = () =>
    void act(async () => {
      if (!job) return;
      const cancelled = await call(
        client.POST('/private/catalog/imports/{id}/cancel', { params: { path: { id: job.Id } } }),
      );
      followed.setJob(cancelled);
      void refreshList();
      focusStatus();
    });
  const show = (id: number) =>
    void act(async () => {
      const chosen = await fetchImport(id);
      followed.setJob(chosen);
      focusStatus();
      if (!running(chosen) && chosen.RowsFailed > 0)
        learn(chosen.Id, { failures: await failedRows(chosen.Id) });
    });
  const createMissing = () => {
    importForm.form.setValue('createMissing', true);
    focusLater(fileInput);
  };

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
      <div tabIndex={-1} ref={importForm.bannerRef}>
        <ErrorMessage error={importForm.message ?? failure ?? followed.error} />
      </div>
      {editable && <ImportForm state={importForm} fileRef={fileInput} onStarted={started} />}
      {job && (
        <Section title={`Import ${job.Id}`}>
          <ImportJobStatus
            job={job}
            extra={extra?.id === job.Id ? extra : {}}
            statusRef={statusRef}
            busy={busy}
            onCancel={editable ? cancel : undefined}
            onCreateMissing={editable ? createMissing : undefined}
          />
        </Section>
      )}
      <ImportList past={past} skip={skip} onPage={setSkip} onShow={show} />
    </div>
  );
}
