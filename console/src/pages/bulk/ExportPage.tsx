// Catalog export: start an export of the whole catalog (JSONL or CSV), follow it (polled every
// second) until its file is ready, download the file; the past exports below with their files.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import {
  ErrorMessage,
  Loading,
  PagedTable,
  PageTitle,
  Section,
  useFocusAfter,
} from '../../components.tsx';
import { ApiFormFrame, SelectField, SubmitButton } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import { useAccess } from '../../session.tsx';
import type { paths } from '@omnichannel/management-client';
import { count, plural, useFollowedJob, when } from './bulk-jobs.ts';
import './bulk.css';

type ExportJob =
  paths['/private/catalog/exports/{id}']['get']['responses'][200]['content']['application/json'];
type Format = ExportJob['Format'];

const PAGE = 10;
const ExportSchema = v.object({
  Format: v.picklist(['jsonl', 'csv']),
  IncludePassiveItems: v.boolean(),
});
const running = (job: ExportJob) => job.State === 'Queued' || job.State === 'Running';
const fileName = (job: ExportJob) => `catalog-export-${job.Id}.${job.Format}`;
const FORMAT_NAME: Record<Format, string> = { jsonl: 'JSONL', csv: 'CSV' };

function stateSentence(job: ExportJob): string {
  switch (job.State) {
    case 'Queued':
      return 'Waiting to start…';
    case 'Running':
      return 'Writing the file…';
    case 'Succeeded':
      return job.AssetUrl
        ? `Done: ${plural(job.ItemsWritten, 'item')} written to the file.`
        : 'Done: the catalog has no items, so there is no file to download.';
    case 'Failed':
      return `The export failed: ${job.Error ?? 'no reason was given.'}`;
  }
}

const RESULT = { Queued: 'Waiting', Running: 'Running', Succeeded: 'Done', Failed: 'Failed' };

function Download({ job }: { job: ExportJob }) {
  if (!job.AssetUrl) return null;
  return (
    <a className="button download" href={job.AssetUrl} download={fileName(job)}>
      Download {fileName(job)}
    </a>
  );
}

export default function ExportPage() {
  const editable = useAccess().can('catalog', 'write');
  const queries = useQueryClient();
  const exporting = useApiForm({
    schema: ExportSchema,
    defaultValues: { Format: 'jsonl', IncludePassiveItems: true },
    labels: { Format: 'Format' },
  });
  const [skip, setSkip] = useState(0);
  const [statusRef, focusStatus] = useFocusAfter<HTMLParagraphElement>();
  const past = useQuery({
    queryKey: ['exports', 'page', skip],
    queryFn: () =>
      call(client.GET('/private/catalog/exports', { params: { query: { skip, take: PAGE } } })),
  });
  const refreshList = () => queries.invalidateQueries({ queryKey: ['exports'] });
  const followed = useFollowedJob(
    (id) => call(client.GET('/private/catalog/exports/{id}', { params: { path: { id } } })),
    running,
    () => {
      void refreshList();
      focusStatus();
    },
  );
  const job = followed.job;

  const start = exporting.submitWith(async (body) => {
    const started = await call(client.POST('/private/catalog/exports', { body }));
    followed.setJob(started);
    void refreshList();
    focusStatus();
  });

  return (
    <div className="bulk-page">
      <PageTitle>Catalog export</PageTitle>
      <p className="intro">
        Write the whole catalog to a file: its items with their prices, attributes, tags and images,
        and the categories, brands, tags, price types and attribute types. The file has the layout{' '}
        <em>Catalog import</em> reads, so it can be edited and imported again, or imported into
        another shop. CSV opens in a spreadsheet.
      </p>
      <div tabIndex={-1} ref={exporting.bannerRef}>
        <ErrorMessage error={exporting.message ?? followed.error} />
      </div>
      {editable && (
        <Section title="Export the catalog">
          <ApiFormFrame api={exporting} onSubmit={start} className="bulk-form" banner={false}>
            <SelectField
              name="Format"
              label="Format"
              options={[
                { value: 'jsonl', label: 'JSONL: one JSON item a line' },
                { value: 'csv', label: 'CSV: for spreadsheets' },
              ]}
            />
            <label className="check">
              <input type="checkbox" {...exporting.form.register('IncludePassiveItems')} /> Include
              passive items (those not shown to shoppers)
            </label>
            <p>
              <SubmitButton>Start export</SubmitButton>
            </p>
          </ApiFormFrame>
        </Section>
      )}
      {job && (
        <Section title={`Export ${job.Id}`}>
          <p
            ref={statusRef}
            tabIndex={-1}
            role="status"
            className={`job-state ${job.State.toLowerCase()}`}
            data-state={job.State}
          >
            {stateSentence(job)}
          </p>
          {running(job) && <progress aria-label={`Export ${job.Id} in progress`} />}
          <dl className="facts job-facts">
            <dt>Format</dt>
            <dd>{FORMAT_NAME[job.Format]}</dd>
            <dt>Items written</dt>
            <dd>{running(job) ? 'counted when the file is ready' : count(job.ItemsWritten)}</dd>
            <dt>Started</dt>
            <dd>{when(job.StartedDate ?? job.CreatedDate)}</dd>
          </dl>
          <p className="actions">
            <Download job={job} />
          </p>
        </Section>
      )}
      <Section title="Past exports">
        <ErrorMessage error={past.error ?? undefined} />
        {past.isPending && <Loading />}
        {past.data &&
          (past.data.TotalCount === 0 ? (
            <p>The catalog has not been exported yet.</p>
          ) : (
            <PagedTable
              caption="Exports"
              total={past.data.TotalCount}
              headers={['Export', 'Result', 'File']}
              skip={skip}
              take={PAGE}
              onPage={setSkip}
            >
              {past.data.Results.map((row) => (
                <tr key={row.Id}>
                  <td data-label="Export">
                    Export {row.Id}, {FORMAT_NAME[row.Format]}
                    <br />
                    <span className="muted">{when(row.CreatedDate)}</span>
                  </td>
                  <td data-label="Result">
                    {RESULT[row.State]}
                    {row.State === 'Succeeded' && (
                      <>
                        <br />
                        {plural(row.ItemsWritten, 'item')}
                      </>
                    )}
                  </td>
                  <td data-label="File">
                    {row.AssetUrl ? (
                      <a href={row.AssetUrl} download={fileName(row)}>
                        {fileName(row)}
                      </a>
                    ) : (
                      <span className="muted">none</span>
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
