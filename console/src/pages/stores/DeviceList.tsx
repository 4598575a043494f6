// The physical devices, a page at a time, with their store; edit and delete.
import type { UseQueryResult } from '@tanstack/react-query';
import { PagedTable } from '../../components.tsx';
import type { PhysicalDevice } from '../../types.ts';
import { PAGE_SIZE, type loadDevicePage } from './stores-api.ts';

export function DeviceList(props: {
  list: UseQueryResult<Awaited<ReturnType<typeof loadDevicePage>>>;
  skip: number;
  onPage: (skip: number) => void;
  editable: boolean;
  onEdit: (device: PhysicalDevice) => void;
  onDelete: (device: PhysicalDevice) => void;
}) {
  const { list, editable } = props;
  if (!list.data) return null;
  return (
    <PagedTable
      caption="Physical devices"
      total={list.data.TotalCount}
      headers={['Device id', 'Description', 'Store', ...(editable ? ['Actions'] : [])]}
      skip={props.skip}
      take={PAGE_SIZE}
      onPage={props.onPage}
    >
      {list.data.Results.map((d) => (
        <tr key={d.DeviceId}>
          <td data-label="Device id">{d.DeviceId}</td>
          <td data-label="Description">{d.Description}</td>
          <td data-label="Store">{d.StoreName ?? '(no store)'}</td>
          {editable && (
            <td className="row-actions">
              <button
                type="button"
                aria-label={`Edit device ${d.DeviceId}`}
                onClick={() => props.onEdit(d)}
              >
                Edit
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Delete device ${d.DeviceId}`}
                onClick={() => props.onDelete(d)}
              >
                Delete
              </button>
            </td>
          )}
        </tr>
      ))}
    </PagedTable>
  );
}
