// The tenant's past imports (10 a page, newest first), each shown again on demand.
import type { UseQueryResult } from '@tanstack/react-query';
import type { paths } from '@omnichannel/management-client';
import { ErrorMessage, Loading, PagedTable, Section } from '../../components.tsx';
import { count, when } from './bulk-jobs.ts';

type ImportPage =
  paths['/private/catalog/imports']['get']['responses'][200]['content']['application/json'];

export const PAST_PAGE = 10;

/** Short words for the list. */
const RESULT = {
  Queued: 'Waiting',
  Running: 'Running',
  Succeeded: 'Done',
  Failed: 'Failed',
  Cancelled: 'Cancelled',
} as const;

export function ImportList(props: {
  past: UseQueryResult<ImportPage>;
  skip: number;
  onPage: (skip: number) => void;
  onShow: (id: number) => void;
}) {
  const { past } = props;
  return (
    <Section title="Past imports">
      <ErrorMessage error={past.error ?? undefined} />
      {past.isPending && <Loading />}
      {past.data &&
        (past.data.TotalCount === 0 ? (
          <p>No file has been imported yet.</p>
        ) : (
          <PagedTable
            caption="Imports"
            total={past.data.TotalCount}
            headers={['Import', 'Result', 'Records']}
            skip={props.skip}
            take={PAST_PAGE}
            onPage={props.onPage}
          >
            {past.data.Results.map((row) => (
              <tr key={row.Id}>
                <td data-label="Import">
                  <button
                    type="button"
                    className="link"
                    onClick={() => props.onShow(row.Id)}
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
  );
}
