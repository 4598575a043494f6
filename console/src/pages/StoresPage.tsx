// Stores and physical devices: the map of every store (StoreMap.tsx) with the chosen store's
// details, a form to add or edit a store (its position picked on the map or typed), the paged
// lists with edit and delete, and a form to register or edit a physical device. The API accepts
// stores of one name (a store is its Id); before creating or renaming a store, the page looks the
// name up among the tenant's stores (trimmed, whatever the case) and, when another store has it,
// warns next to the name and saves only after "Save anyway".
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { call, client } from '../api.ts';
import { allPages } from '../catalog.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  PagedTable,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import { StoreMap, type MapStore, type StoreMapHandle } from '../StoreMap.tsx';
import type { LonLat } from '../map-geometry.ts';
import type { PhysicalDevice, Store } from '../types.ts';
import './stores.css';
import { sameName } from '../same-name.ts';

const TAKE = 50;
/** The map draws at most this many stores and devices. */
const MAP_LIMIT = 5000;

const STORE_LABELS = {
  Name: 'Store name',
  Description: 'Store description',
  Address: 'Address',
  Location: 'Position',
  'Location.Latitude': 'Latitude',
  'Location.Longitude': 'Longitude',
};
const DEVICE_LABELS = {
  DeviceId: 'Device id',
  Description: 'Device description',
  StoreId: 'Store',
};

interface StoreFields {
  Name: string;
  Description: string;
  Address: string;
  Latitude: string;
  Longitude: string;
}
const NO_STORE: StoreFields = {
  Name: '',
  Description: '',
  Address: '',
  Latitude: '',
  Longitude: '',
};
interface DeviceFields {
  DeviceId: string;
  Description: string;
  StoreId: string;
}

/** A typed coordinate; empty or not a number is NaN, sent as null (the API names the field). */
const coordinate = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
/** A store of `list` named `name` (trimmed, whatever the case), other than `exceptId`. */
const namesakeIn = (list: Store[], name: string, exceptId?: number) =>
  list.find((s) => s.Id !== exceptId && sameName(s.Name, name));
const etagOf = (response: Response) => response.headers.get('ETag') ?? undefined;

/** What an action's outcome says, where the focus goes after it: a status or the failure. */
function Notice({
  status,
  error,
  noticeRef,
}: {
  status: string | undefined;
  error: unknown;
  noticeRef: RefObject<HTMLDivElement | null>;
}) {
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
function Panel(props: {
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

type FocusTarget =
  | 'store-heading'
  | 'store-notice'
  | 'store-invalid'
  | 'store-anyway'
  | 'details'
  | 'device-heading'
  | 'device-notice'
  | 'device-invalid';

export default function StoresPage() {
  const editable = useAccess().can('company', 'write');
  const all = useLoad(
    () =>
      Promise.all([
        allPages(
          (range) => client.GET('/management/company/stores', { params: { query: range } }),
          MAP_LIMIT,
        ),
        allPages(
          (range) =>
            client.GET('/management/company/physicaldevices', { params: { query: range } }),
          MAP_LIMIT,
        ),
      ]),
    [],
  );
  const [storeSkip, setStoreSkip] = useState(0);
  const [deviceSkip, setDeviceSkip] = useState(0);
  const storeList = useLoad(
    () =>
      call(
        client.GET('/management/company/stores', {
          params: { query: { skip: storeSkip, take: TAKE } },
        }),
      ),
    [storeSkip],
  );
  const devices = useLoad(
    () =>
      call(
        client.GET('/management/company/physicaldevices', {
          params: { query: { skip: deviceSkip, take: TAKE } },
        }),
      ),
    [deviceSkip],
  );
  const [stores, allDevices] = all.data ?? [[], []];
  const reload = () => {
    all.reload();
    storeList.reload();
    devices.reload();
  };

  const map = useRef<StoreMapHandle>(null);
  const [selectedId, setSelectedId] = useState<number>();
  const selected = stores.find((s) => s.Id === selectedId);
  const devicesIn = useMemo(() => {
    const byStore = new Map<number, PhysicalDevice[]>();
    for (const device of allDevices)
      if (device.StoreId !== null)
        byStore.set(device.StoreId, [...(byStore.get(device.StoreId) ?? []), device]);
    return byStore;
  }, [allDevices]);
  const mapStores = useMemo<MapStore[]>(
    () =>
      stores.map((s) => ({
        id: s.Id,
        name: s.Name,
        lon: s.Location.Longitude,
        lat: s.Location.Latitude,
        devices: devicesIn.get(s.Id)?.length ?? 0,
      })),
    [stores, devicesIn],
  );

  // The focus after each action, once the page shows its outcome.
  const [focus, setFocus] = useState<{ target: FocusTarget; seq: number }>();
  const focusOn = (target: FocusTarget) => setFocus((f) => ({ target, seq: (f?.seq ?? 0) + 1 }));
  const storeHeading = useRef<HTMLHeadingElement>(null);
  const storeNotice = useRef<HTMLDivElement>(null);
  const storeForm = useRef<HTMLFormElement>(null);
  const saveAnyway = useRef<HTMLButtonElement>(null);
  const detailsHeading = useRef<HTMLHeadingElement>(null);
  const deviceHeading = useRef<HTMLHeadingElement>(null);
  const deviceNotice = useRef<HTMLDivElement>(null);
  const deviceForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!focus) return;
    const invalid = (form: HTMLFormElement | null, otherwise: HTMLElement | null) =>
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? otherwise;
    const element = {
      'store-heading': storeHeading.current,
      'store-notice': storeNotice.current,
      'store-invalid': invalid(storeForm.current, storeNotice.current),
      'store-anyway': saveAnyway.current,
      details: detailsHeading.current,
      'device-heading': deviceHeading.current,
      'device-notice': deviceNotice.current,
      'device-invalid': invalid(deviceForm.current, deviceNotice.current),
    }[focus.target];
    element?.focus();
  }, [focus]);

  // Stores ---------------------------------------------------------------------------------------
  const storeAction = useAction(STORE_LABELS);
  const [storeStatus, setStoreStatus] = useState<string>();
  const [fields, setFields] = useState<StoreFields>(NO_STORE);
  const [editing, setEditing] = useState<{ id: number; name: string; etag?: string }>();
  /** The name (trimmed) of the other store that the form's name repeats, once the user was told. */
  const [namesake, setNamesake] = useState<string>();
  const warningId = useId();
  // The name the user chose to save anyway: not warned of again while the form keeps it (after a
  // save refused for another field, say).
  const [acceptedName, setAcceptedName] = useState<string>();
  // The name as typed now: a look-up that comes back after the name changed says nothing.
  const typedName = useRef(fields.Name);
  typedName.current = fields.Name;

  const setField = (name: keyof StoreFields, value: string) => {
    setFields((f) => ({ ...f, [name]: value }));
    if (name === 'Name') {
      setNamesake(undefined);
      setAcceptedName(undefined);
    }
    const path = name === 'Latitude' || name === 'Longitude' ? `Location.${name}` : name;
    storeAction.clearField(path);
    if (path.startsWith('Location')) storeAction.clearField('Location');
  };
  const picked: LonLat | undefined = (() => {
    const lat = coordinate(fields.Latitude);
    const lon = coordinate(fields.Longitude);
    return Number.isFinite(lat) &&
      Number.isFinite(lon) &&
      Math.abs(lat) <= 90 &&
      Math.abs(lon) <= 180
      ? { lat, lon }
      : undefined;
  })();
  const pick = editable
    ? {
        what: editing ? `“${editing.name}”` : 'the new store',
        at: picked,
        onPick: ({ lat, lon }: LonLat) => {
          setFields((f) => ({ ...f, Latitude: String(lat), Longitude: String(lon) }));
          storeAction.clearField('Location.Latitude');
          storeAction.clearField('Location.Longitude');
          storeAction.clearField('Location');
        },
      }
    : undefined;

  const resetStoreForm = () => {
    setFields(NO_STORE);
    setEditing(undefined);
    setNamesake(undefined);
    setAcceptedName(undefined);
  };

  /**
   * The tenant's other store named `name`, if any: from the stores the page loaded for the map
   * when it has them all, else from the API.
   */
  const findNamesake = async (name: string, exceptId?: number) => {
    const complete = all.data !== undefined && stores.length < MAP_LIMIT;
    const list = complete
      ? stores
      : await allPages((range) =>
          client.GET('/management/company/stores', { params: { query: range } }),
        );
    return namesakeIn(list, name, exceptId);
  };

  /**
   * Creates or saves the store; unless `confirmed`, first warns (and stops) when another store of
   * the tenant has its name.
   */
  const saveStore = (confirmed: boolean) => {
    const body = {
      Name: fields.Name.trim(),
      Description: fields.Description.trim() || null,
      Address: fields.Address.trim() || null,
      Location: {
        Latitude: coordinate(fields.Latitude),
        Longitude: coordinate(fields.Longitude),
      },
    };
    setStoreStatus(undefined);
    setNamesake(undefined);
    if (confirmed) setAcceptedName(body.Name);
    // A rename: a new store, or another name than the edited store's own.
    const renaming = !editing || !sameName(body.Name, editing.name);
    void (async () => {
      let saved: Store | undefined;
      let warned = false;
      let stale = false;
      const ok = await storeAction.run(async () => {
        if (!confirmed && renaming && body.Name !== '' && body.Name !== acceptedName) {
          const existing = await findNamesake(body.Name, editing?.id);
          if (typedName.current.trim() !== body.Name) {
            stale = true;
            return;
          }
          if (existing) {
            setNamesake(existing.Name.trim());
            warned = true;
            return;
          }
        }
        saved = editing
          ? await call(
              client.PUT('/management/company/store/{id}', {
                params: {
                  path: { id: editing.id },
                  header: editing.etag ? { 'If-Match': editing.etag } : {},
                },
                body: { ...body, Id: editing.id },
              }),
            )
          : await call(client.POST('/management/company/store', { body }));
      });
      if (stale) return;
      if (warned) {
        focusOn('store-anyway');
        return;
      }
      if (!ok || !saved) {
        focusOn('store-invalid');
        return;
      }
      setStoreStatus(editing ? `Store “${saved.Name}” saved.` : `Store “${saved.Name}” created.`);
      resetStoreForm();
      setSelectedId(saved.Id);
      map.current?.show({ lat: saved.Location.Latitude, lon: saved.Location.Longitude });
      reload();
      focusOn('store-notice');
    })();
  };
  const submitStore = (event: FormEvent) => {
    event.preventDefault();
    saveStore(false);
  };

  const editStore = (store: Store) => {
    setStoreStatus(undefined);
    void (async () => {
      const ok = await storeAction.run(async () => {
        const answer = await client.GET('/management/company/store/{id}', {
          params: { path: { id: store.Id } },
        });
        const fresh = await call(Promise.resolve(answer));
        setFields({
          Name: fresh.Name,
          Description: fresh.Description ?? '',
          Address: fresh.Address ?? '',
          Latitude: String(fresh.Location.Latitude),
          Longitude: String(fresh.Location.Longitude),
        });
        setNamesake(undefined);
        setAcceptedName(undefined);
        setEditing({ id: fresh.Id, name: fresh.Name, etag: etagOf(answer.response) });
        setSelectedId(fresh.Id);
        map.current?.show({ lat: fresh.Location.Latitude, lon: fresh.Location.Longitude });
      });
      focusOn(ok ? 'store-heading' : 'store-notice');
    })();
  };

  const deleteStore = (store: Store) => {
    if (!confirm(`Delete the store “${store.Name}”?`)) return;
    setStoreStatus(undefined);
    void (async () => {
      const ok = await storeAction.run(() =>
        call(
          client.DELETE('/management/company/store/{id}', { params: { path: { id: store.Id } } }),
        ),
      );
      if (ok) {
        setStoreStatus(`Store “${store.Name}” deleted.`);
        if (editing?.id === store.Id) resetStoreForm();
        if (selectedId === store.Id) setSelectedId(undefined);
        reload();
      }
      focusOn('store-notice');
    })();
  };

  const cancelEdit = () => {
    resetStoreForm();
    storeAction.setError(undefined);
    setStoreStatus(undefined);
    focusOn('store-heading');
  };

  // Devices --------------------------------------------------------------------------------------
  const deviceAction = useAction(DEVICE_LABELS);
  const [deviceStatus, setDeviceStatus] = useState<string>();
  const [device, setDevice] = useState<DeviceFields>({
    DeviceId: '',
    Description: '',
    StoreId: '',
  });
  const [editingDevice, setEditingDevice] = useState<{ id: string; etag?: string }>();
  const setDeviceField = (name: keyof DeviceFields, value: string) => {
    setDevice((d) => ({ ...d, [name]: value }));
    deviceAction.clearField(name);
  };
  const storeOptions = stores.map((s) => ({ value: String(s.Id), label: s.Name }));
  const storeNameOf = (id: string) => stores.find((s) => String(s.Id) === id)?.Name;

  const submitDevice = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      DeviceId: editingDevice ? editingDevice.id : device.DeviceId.trim(),
      Description: device.Description.trim() || null,
      StoreId: device.StoreId === '' ? null : Number(device.StoreId),
    };
    setDeviceStatus(undefined);
    void (async () => {
      const ok = await deviceAction.run(() =>
        editingDevice
          ? call(
              client.PUT('/management/company/physicaldevices/{physicalDeviceId}', {
                params: {
                  path: { physicalDeviceId: editingDevice.id },
                  header: editingDevice.etag ? { 'If-Match': editingDevice.etag } : {},
                },
                body,
              }),
            )
          : call(client.POST('/management/company/physicaldevices', { body })),
      );
      if (!ok) {
        focusOn('device-invalid');
        return;
      }
      const where = body.StoreId === null ? 'in no store' : `in “${storeNameOf(device.StoreId)}”`;
      setDeviceStatus(
        editingDevice
          ? `Device “${body.DeviceId}” saved, ${where}.`
          : `Device “${body.DeviceId}” registered ${where}.`,
      );
      setEditingDevice(undefined);
      setDevice({ DeviceId: '', Description: '', StoreId: editingDevice ? '' : device.StoreId });
      reload();
      focusOn('device-notice');
    })();
  };

  const editDevice = (row: PhysicalDevice) => {
    setDeviceStatus(undefined);
    void (async () => {
      const ok = await deviceAction.run(async () => {
        const answer = await client.GET('/management/company/physicaldevices/{physicalDeviceId}', {
          params: { path: { physicalDeviceId: row.DeviceId } },
        });
        const fresh = await call(Promise.resolve(answer));
        setDevice({
          DeviceId: fresh.DeviceId,
          Description: fresh.Description ?? '',
          StoreId: fresh.StoreId === null ? '' : String(fresh.StoreId),
        });
        setEditingDevice({ id: fresh.DeviceId, etag: etagOf(answer.response) });
      });
      focusOn(ok ? 'device-heading' : 'device-notice');
    })();
  };

  const deleteDevice = (row: PhysicalDevice) => {
    if (
      !confirm(
        `Delete the device “${row.DeviceId}”? Its logical devices are deleted with it and its sign-ins end.`,
      )
    )
      return;
    setDeviceStatus(undefined);
    void (async () => {
      const ok = await deviceAction.run(() =>
        call(
          client.DELETE('/management/company/physicaldevices/{physicalDeviceId}', {
            params: { path: { physicalDeviceId: row.DeviceId } },
          }),
        ),
      );
      if (ok) {
        setDeviceStatus(`Device “${row.DeviceId}” deleted.`);
        if (editingDevice?.id === row.DeviceId) {
          setEditingDevice(undefined);
          setDevice({ DeviceId: '', Description: '', StoreId: '' });
        }
        reload();
      }
      focusOn('device-notice');
    })();
  };

  const cancelDeviceEdit = () => {
    setEditingDevice(undefined);
    setDevice({ DeviceId: '', Description: '', StoreId: '' });
    deviceAction.setError(undefined);
    setDeviceStatus(undefined);
    focusOn('device-heading');
  };

  const selectStore = (id: number) => {
    setSelectedId(id);
    const store = stores.find((s) => s.Id === id);
    if (store) map.current?.show({ lat: store.Location.Latitude, lon: store.Location.Longitude });
    focusOn('details');
  };

  const selectedDevices = selected ? (devicesIn.get(selected.Id) ?? []) : [];

  return (
    <div className="stores-page">
      <PageTitle>Stores and devices</PageTitle>
      <ErrorMessage error={all.error ?? storeList.error ?? devices.error} />
      {all.loading && !all.data && <Loading />}
      <div className="stores-top">
        <Panel title="Map" className="map-panel">
          <StoreMap
            ref={map}
            stores={mapStores}
            loaded={all.data !== undefined}
            selectedId={selectedId}
            onSelect={selectStore}
            pick={pick}
          />
          {stores.length === MAP_LIMIT && (
            <p className="muted">The map shows the first {MAP_LIMIT} stores.</p>
          )}
          {selected && (
            <div className="store-details">
              <h3 tabIndex={-1} ref={detailsHeading}>
                {selected.Name}
              </h3>
              <dl className="store-facts">
                {selected.Address && (
                  <>
                    <dt>Address</dt>
                    <dd>{selected.Address}</dd>
                  </>
                )}
                {selected.Description && (
                  <>
                    <dt>Description</dt>
                    <dd>{selected.Description}</dd>
                  </>
                )}
                <dt>Latitude, longitude</dt>
                <dd>
                  {selected.Location.Latitude}, {selected.Location.Longitude}
                </dd>
                <dt>Devices</dt>
                <dd>
                  {selectedDevices.length === 0
                    ? 'None'
                    : selectedDevices.map((d) => d.DeviceId).join(', ')}
                </dd>
              </dl>
              {editable && (
                <div className="actions">
                  <button type="button" onClick={() => editStore(selected)}>
                    Edit store
                  </button>
                  <button type="button" className="danger" onClick={() => deleteStore(selected)}>
                    Delete store
                  </button>
                </div>
              )}
            </div>
          )}
        </Panel>
        {editable && (
          <Panel
            title={editing ? `Edit store “${editing.name}”` : 'New store'}
            headingRef={storeHeading}
            className="store-form"
          >
            <Notice status={storeStatus} error={storeAction.message} noticeRef={storeNotice} />
            <form ref={storeForm} onSubmit={submitStore} noValidate>
              <Field
                label="Store name"
                value={fields.Name}
                onChange={(v) => setField('Name', v)}
                error={storeAction.fieldError('Name')}
              />
              {namesake !== undefined && (
                <div className="name-warning">
                  <p id={warningId}>
                    A store named “{namesake}” already exists. Stores are told apart by name on the
                    map and in device lists; choose another name, or save it anyway.
                  </p>
                  <button
                    type="button"
                    ref={saveAnyway}
                    aria-describedby={warningId}
                    disabled={storeAction.busy}
                    onClick={() => saveStore(true)}
                  >
                    Save anyway
                  </button>
                </div>
              )}
              <Field
                label="Address"
                value={fields.Address}
                onChange={(v) => setField('Address', v)}
                error={storeAction.fieldError('Address')}
              />
              <Field
                label="Store description"
                value={fields.Description}
                onChange={(v) => setField('Description', v)}
                error={storeAction.fieldError('Description')}
              />
              <p className="muted pick-note">
                Click the map to set the position, or type it (decimal degrees, like 52.52 and
                13.405).
              </p>
              <div className="coordinates">
                <Field
                  label="Latitude"
                  type="number"
                  step="any"
                  value={fields.Latitude}
                  onChange={(v) => setField('Latitude', v)}
                  error={
                    storeAction.fieldError('Location.Latitude') ??
                    storeAction.fieldError('Location')
                  }
                />
                <Field
                  label="Longitude"
                  type="number"
                  step="any"
                  value={fields.Longitude}
                  onChange={(v) => setField('Longitude', v)}
                  error={storeAction.fieldError('Location.Longitude')}
                />
              </div>
              <button type="submit" disabled={storeAction.busy}>
                {editing ? 'Save store' : 'Create store'}
              </button>
              {editing && (
                <button type="button" onClick={cancelEdit}>
                  Cancel
                </button>
              )}
            </form>
          </Panel>
        )}
      </div>
      <Panel title="Stores" className="stores-list">
        <PagedTable
          caption="Stores"
          total={storeList.data?.TotalCount ?? 0}
          headers={[
            'Id',
            'Name',
            'Address',
            'Latitude, longitude',
            'Devices',
            ...(editable ? ['Actions'] : []),
          ]}
          skip={storeSkip}
          take={TAKE}
          onPage={setStoreSkip}
        >
          {(storeList.data?.Results ?? []).map((s) => (
            <tr key={s.Id}>
              <td data-label="Id">{s.Id}</td>
              <td data-label="Name">
                <button type="button" className="link" onClick={() => selectStore(s.Id)}>
                  {s.Name}
                </button>
              </td>
              <td data-label="Address">{s.Address}</td>
              <td data-label="Latitude, longitude">
                {s.Location.Latitude}, {s.Location.Longitude}
              </td>
              <td data-label="Devices">{devicesIn.get(s.Id)?.length ?? 0}</td>
              {editable && (
                <td className="row-actions">
                  <button type="button" aria-label={`Edit ${s.Name}`} onClick={() => editStore(s)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${s.Name}`}
                    onClick={() => deleteStore(s)}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </PagedTable>
      </Panel>
      {editable && (
        <Panel
          title={editingDevice ? `Edit device “${editingDevice.id}”` : 'New physical device'}
          headingRef={deviceHeading}
          className="device-form"
        >
          <Notice status={deviceStatus} error={deviceAction.message} noticeRef={deviceNotice} />
          <form ref={deviceForm} className="row" onSubmit={submitDevice} noValidate>
            {!editingDevice && (
              <Field
                label="Device id"
                value={device.DeviceId}
                onChange={(v) => setDeviceField('DeviceId', v)}
                error={deviceAction.fieldError('DeviceId')}
              />
            )}
            <Field
              label="Device description"
              value={device.Description}
              onChange={(v) => setDeviceField('Description', v)}
              error={deviceAction.fieldError('Description')}
            />
            <Select
              label="Store"
              value={device.StoreId}
              onChange={(v) => setDeviceField('StoreId', v)}
              empty="(no store)"
              options={storeOptions}
              error={deviceAction.fieldError('StoreId')}
            />
            <div className="form-buttons">
              <button type="submit" disabled={deviceAction.busy}>
                {editingDevice ? 'Save device' : 'Register device'}
              </button>
              {editingDevice && (
                <button type="button" onClick={cancelDeviceEdit}>
                  Cancel
                </button>
              )}
            </div>
          </form>
        </Panel>
      )}
      <Panel title="Physical devices" className="devices-list">
        {devices.data && (
          <PagedTable
            caption="Physical devices"
            total={devices.data.TotalCount}
            headers={['Device id', 'Description', 'Store', ...(editable ? ['Actions'] : [])]}
            skip={deviceSkip}
            take={TAKE}
            onPage={setDeviceSkip}
          >
            {devices.data.Results.map((d) => (
              <tr key={d.DeviceId}>
                <td data-label="Device id">{d.DeviceId}</td>
                <td data-label="Description">{d.Description}</td>
                <td data-label="Store">{d.StoreName ?? '(no store)'}</td>
                {editable && (
                  <td className="row-actions">
                    <button
                      type="button"
                      aria-label={`Edit device ${d.DeviceId}`}
                      onClick={() => editDevice(d)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete device ${d.DeviceId}`}
                      onClick={() => deleteDevice(d)}
                    >
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </PagedTable>
        )}
      </Panel>
    </div>
  );
}
