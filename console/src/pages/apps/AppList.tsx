// The tenant's apps, a page at a time: name, type, ApplicationId, when made; rotate a secret or
// delete an app (not the predefined one).
import type { UseQueryResult } from '@tanstack/react-query';
import { Loading, PagedTable } from '../../components.tsx';
import type { App } from '../../types.ts';
import { scrolling } from '../scrolling-table.tsx';
import { PAGE_SIZE, type loadApps } from './apps-api.ts';

export function AppList(props: {
  list: UseQueryResult<Awaited<ReturnType<typeof loadApps>>>;
  skip: number;
  onPage: (skip: number) => void;
  editable: boolean;
  busy: boolean;
  onRotate: (app: App) => void;
  onDelete: (app: App) => void;
}) {
  const { list, editable, busy } = props;
  if (list.isPending) return <Loading />;
  if (!list.data) return null;
  return (
    <PagedTable
      caption="Apps"
      total={list.data.TotalCount}
      headers={['Name', 'Type', 'ApplicationId', 'Created', ...(editable ? ['Actions'] : [])]}
      skip={props.skip}
      take={PAGE_SIZE}
      onPage={props.onPage}
      wrap={scrolling('Apps, scrollable')}
    >
      {list.data.Results.map((app) => (
        <tr key={app.ApplicationId} data-app={app.ApplicationId} tabIndex={-1}>
          <td className="wrap">
            {app.Name}
            {app.IsPredefined && ' (predefined)'}
          </td>
          <td>{app.ApplicationTypeDescription}</td>
          <td className="wrap">
            <code>{app.ApplicationId}</code>
          </td>
          <td>{new Date(app.CreatedDate).toLocaleString()}</td>
          {editable && (
            <td>
              <button type="button" disabled={busy} onClick={() => props.onRotate(app)}>
                Rotate secret of {app.Name}
              </button>
              {!app.IsPredefined && (
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() => props.onDelete(app)}
                >
                  Delete {app.Name}
                </button>
              )}
            </td>
          )}
        </tr>
      ))}
    </PagedTable>
  );
}
