// The chosen store under the map: its address, description, position and devices, with Edit
// and Delete; and the panel and notice the page's parts share.
import type { ReactNode, RefObject } from 'react';
import { ErrorMessage } from '../../components.tsx';
import type { PhysicalDevice, Store } from '../../types.ts';

export function StoreDetails(props: {
  store: Store;
  devices: PhysicalDevice[];
  headingRef: RefObject<HTMLHeadingElement | null>;
  editable: boolean;
  onEdit: (store: Store) => void;
  onDelete: (store: Store) => void;
}) {
  const { store, devices } = props;
  return (
    <div className="store-details">
      <h3 tabIndex={-1} ref={props.headingRef}>
        {store.Name}
      </h3>
      <dl className="store-facts">
        {store.Address && (
          <>
            <dt>Address</dt>
            <dd>{store.Address}</dd>
          </>
        )}
        {store.Description && (
          <>
            <dt>Description</dt>
            <dd>{store.Description}</dd>
          </>
        )}
        <dt>Latitude, longitude</dt>
        <dd>
          {store.Location.Latitude}, {store.Location.Longitude}
        </dd>
        <dt>Devices</dt>
        <dd>{devices.length === 0 ? 'None' : devices.map((d) => d.DeviceId).join(', ')}</dd>
      </dl>
      {props.editable && (
        <div className="actions">
          <button type="button" onClick={() => props.onEdit(store)}>
            Edit store
          </button>
          <button type="button" className="danger" onClick={() => props.onDelete(store)}>
            Delete store
          </button>
        </div>
      )}
    </div>
  );
}

/** What an action's outcome says, where the focus goes after it: a status or the failure. */
export function Notice(props: {
  status: string | undefined;
  error: unknown;
  noticeRef: RefObject<HTMLDivElement | null>;
}) {
  const { status, error, noticeRef } = props;
  return (
    <div className="notice-area" tabIndex={-1} ref={noticeRef}>
      {error !== undefined ? (
        <ErrorMessage error={error} />
      ) : (
        <p role="status" className="ok">
          {status}
        </p>
      )}
    </div>
  );
}

/** A panel whose heading can take the focus (a form's heading after "Edit"). */
export function Panel(props: {
  title: string;
  headingRef?: RefObject<HTMLHeadingElement | null>;
  className?: string;
  children: ReactNode;
}) {
  const id = `panel-${props.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return (
    <section className={`panel ${props.className ?? ''}`.trim()} aria-labelledby={id}>
      <h2 id={id} tabIndex={-1} ref={props.headingRef}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}
