// The stores, a page at a time: the name shows the store on the map; edit and delete.
import type { UseQueryResult } from '@tanstack/react-query';
import { PagedTable } from '../../components.tsx';
import type { Store } from '../../types.ts';
import { PAGE_SIZE, type loadStorePage } from './stores-api.ts';

export function StoreList(props: {
  list: UseQueryResult<Awaited<ReturnType<typeof loadStorePage>>>;
  skip: number;
  onPage: (skip: number) => void;
  deviceCount: (storeId: number) => number;
  editable: boolean;
  onShow: (id: number) => void;
  onEdit: (store: Store) => void;
  onDelete: (store: Store) => void;
}) {
  const { list, editable } = props;
  return (
    <PagedTable
      caption="Stores"
      total={list.data?.TotalCount ?? 0}
      headers={[
        'Id',
        'Name',
        'Address',
        'Latitude, longitude',
        'Devices',
        ...(editable ? ['Actions'] : []),
      ]}
      skip={props.skip}
      take={PAGE_SIZE}
      onPage={props.onPage}
    >
      {(list.data?.Results ?? []).map((s) => (
        <tr key={s.Id}>
          <td data-label="Id">{s.Id}</td>
          <td data-label="Name">
            <button type="button" className="link" onClick={() => props.onShow(s.Id)}>
              {s.Name}
            </button>
          </td>
          <td data-label="Address">{s.Address}</td>
          <td data-label="Latitude, longitude">
            {s.Location.Latitude}, {s.Location.Longitude}
          </td>
          <td data-label="Devices">{props.deviceCount(s.Id)}</td>
          {editable && (
            <td className="row-actions">
              <button type="button" aria-label={`Edit ${s.Name}`} onClick={() => props.onEdit(s)}>
                Edit
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Delete ${s.Name}`}
                onClick={() => props.onDelete(s)}
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
