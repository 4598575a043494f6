// Stores and physical devices: the map of every store (StoreMap.tsx) with the chosen store's
// details, the form to add or edit a store (its position picked on the map or typed), the paged
// lists with edit and delete, and the form to register or edit a physical device. After each
// action the focus goes to what it produced: the form's status line, the form's heading after
// Edit and Cancel, the store's details after choosing it; after a refusal, the first field in
// error (else the status line).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { errorText, focusLater, Loading, PageTitle } from '../../components.tsx';
import { ErrorMessage } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import { StoreMap, type MapStore, type StoreMapHandle } from '../../StoreMap.tsx';
import type { PhysicalDevice, Store } from '../../types.ts';
import { DeviceForm, deviceFieldsOf, useDeviceForm, type DeviceEditing } from './DeviceForm.tsx';
import { DeviceList } from './DeviceList.tsx';
import { Notice, Panel, StoreDetails } from './StoreDetails.tsx';
import {
  fieldsOf,
  pickPosition,
  positionOf,
  StoreForm,
  useStoreForm,
  type StoreEditing,
} from './StoreForm.tsx';
import { StoreList } from './StoreList.tsx';
import './stores.css';
import {
  deleteDevice,
  deleteStore,
  fetchDevice,
  fetchStore,
  loadDevicePage,
  loadMap,
  loadStorePage,
  MAP_LIMIT,
  storeKeys,
} from './stores-api.ts';

/** Whether the person points with a finger (the map's words say tap and pinch). */
const touchScreen = () => window.matchMedia('(pointer: coarse)').matches;

export default function StoresPage() {
  const editable = useAccess().can('company', 'write');
  const queries = useQueryClient();
  const all = useQuery({ queryKey: storeKeys.map, queryFn: loadMap });
  const [storeSkip, setStoreSkip] = useState(0);
  const [deviceSkip, setDeviceSkip] = useState(0);
  const storeList = useQuery({
    queryKey: storeKeys.page(storeSkip),
    queryFn: () => loadStorePage(storeSkip),
  });
  const devices = useQuery({
    queryKey: storeKeys.devices(deviceSkip),
    queryFn: () => loadDevicePage(deviceSkip),
  });
  const [stores, allDevices] = all.data ?? [[], []];
  const touch = useMemo(touchScreen, []);

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
  const storeHeading = useRef<HTMLHeadingElement>(null);
  const detailsHeading = useRef<HTMLHeadingElement>(null);
  const deviceHeading = useRef<HTMLHeadingElement>(null);

  // Stores --------------------------------------------------------------------------------------
  const storeForm = useStoreForm();
  const [storeStatus, setStoreStatus] = useState<string>();
  const [storeError, setStoreError] = useState<string>();
  const [editing, setEditing] = useState<StoreEditing>();
  const storeNotice = storeForm.bannerRef;
  const showStore = (store: Store) =>
    map.current?.show({ lat: store.Location.Latitude, lon: store.Location.Longitude });
  const resetStoreForm = () => {
    storeForm.form.reset();
    storeForm.clearFailure();
    setEditing(undefined);
  };
  const saved = (store: Store, created: boolean) => {
    setStoreStatus(created ? `Store “${store.Name}” created.` : `Store “${store.Name}” saved.`);
    setEditing(undefined);
    setSelectedId(store.Id);
    showStore(store);
    focusLater(storeNotice);
  };
  const editStore = (store: Store) => {
    setStoreStatus(undefined);
    setStoreError(undefined);
    fetchStore(store.Id).then(
      (fresh) => {
        storeForm.clearFailure();
        storeForm.form.reset(fieldsOf(fresh.data));
        setEditing({ store: fresh.data, etag: fresh.etag });
        setSelectedId(fresh.data.Id);
        showStore(fresh.data);
        focusLater(storeHeading);
      },
      (error: unknown) => {
        setStoreError(errorText(error));
        focusLater(storeNotice);
      },
    );
  };
  const removeStore = (store: Store) => {
    if (!confirm(`Delete the store “${store.Name}”?`)) return;
    setStoreStatus(undefined);
    setStoreError(undefined);
    deleteStore(store.Id)
      .then(
        async () => {
          setStoreStatus(`Store “${store.Name}” deleted.`);
          if (editing?.store.Id === store.Id) resetStoreForm();
          if (selectedId === store.Id) setSelectedId(undefined);
          await queries.invalidateQueries({ queryKey: storeKeys.all });
        },
        (error: unknown) => setStoreError(errorText(error)),
      )
      .finally(() => focusLater(storeNotice));
  };
  const cancelEdit = () => {
    resetStoreForm();
    setStoreStatus(undefined);
    focusLater(storeHeading);
  };
  const pick = editable
    ? {
        what: editing ? `“${editing.store.Name}”` : 'the new store',
        at: positionOf(storeForm),
        onPick: (at: { lat: number; lon: number }) => pickPosition(storeForm, at),
      }
    : undefined;

  // Devices -------------------------------------------------------------------------------------
  const deviceForm = useDeviceForm();
  const [deviceStatus, setDeviceStatus] = useState<string>();
  const [deviceError, setDeviceError] = useState<string>();
  const [editingDevice, setEditingDevice] = useState<DeviceEditing>();
  const deviceNotice = deviceForm.bannerRef;
  const deviceSaved = (text: string) => {
    setDeviceStatus(text);
    setEditingDevice(undefined);
    focusLater(deviceNotice);
  };
  const editDevice = (row: PhysicalDevice) => {
    setDeviceStatus(undefined);
    setDeviceError(undefined);
    fetchDevice(row.DeviceId).then(
      (fresh) => {
        deviceForm.clearFailure();
        deviceForm.form.reset(deviceFieldsOf(fresh.data));
        setEditingDevice({ device: fresh.data, etag: fresh.etag });
        focusLater(deviceHeading);
      },
      (error: unknown) => {
        setDeviceError(errorText(error));
        focusLater(deviceNotice);
      },
    );
  };
  const removeDevice = (row: PhysicalDevice) => {
    const question = `Delete the device “${row.DeviceId}”? Its logical devices are deleted with it and its sign-ins end.`;
    if (!confirm(question)) return;
    setDeviceStatus(undefined);
    setDeviceError(undefined);
    deleteDevice(row.DeviceId)
      .then(
        async () => {
          setDeviceStatus(`Device “${row.DeviceId}” deleted.`);
          if (editingDevice?.device.DeviceId === row.DeviceId) {
            setEditingDevice(undefined);
            deviceForm.form.reset();
          }
          await queries.invalidateQueries({ queryKey: storeKeys.all });
        },
        (error: unknown) => setDeviceError(errorText(error)),
      )
      .finally(() => focusLater(deviceNotice));
  };
  const cancelDeviceEdit = () => {
    setEditingDevice(undefined);
    deviceForm.form.reset({ DeviceId: '', Description: '', StoreId: '' });
    deviceForm.clearFailure();
    setDeviceStatus(undefined);
    focusLater(deviceHeading);
  };

  const selectStore = (id: number) => {
    setSelectedId(id);
    const store = stores.find((s) => s.Id === id);
    if (store) showStore(store);
    focusLater(detailsHeading);
  };

  return (
    <div className="stores-page">
      <PageTitle>Stores and devices</PageTitle>
      <ErrorMessage error={all.error ?? storeList.error ?? devices.error ?? undefined} />
      {all.isPending && <Loading />}
      <div className="stores-top">
        <Panel title="Map" className="map-panel">
          <StoreMap
            ref={map}
            stores={mapStores}
            loaded={all.data !== undefined}
            selectedId={selectedId}
            onSelect={selectStore}
            pick={pick}
            touch={touch}
          />
          {stores.length === MAP_LIMIT && (
            <p className="muted">The map shows the first {MAP_LIMIT} stores.</p>
          )}
          {selected && (
            <StoreDetails
              store={selected}
              devices={devicesIn.get(selected.Id) ?? []}
              headingRef={detailsHeading}
              editable={editable}
              onEdit={editStore}
              onDelete={removeStore}
            />
          )}
        </Panel>
        {editable && (
          <Panel
            title={editing ? `Edit store “${editing.store.Name}”` : 'New store'}
            headingRef={storeHeading}
            className="store-form"
          >
            <Notice
              status={storeStatus}
              error={storeForm.message ?? storeError}
              noticeRef={storeNotice}
            />
            <StoreForm
              state={storeForm}
              editing={editing}
              stores={all.data ? stores : undefined}
              onSaved={saved}
              onCancel={cancelEdit}
              headingRef={storeHeading}
              touch={touch}
            />
          </Panel>
        )}
      </div>
      <Panel title="Stores" className="stores-list">
        <StoreList
          list={storeList}
          skip={storeSkip}
          onPage={setStoreSkip}
          deviceCount={(id) => devicesIn.get(id)?.length ?? 0}
          editable={editable}
          onShow={selectStore}
          onEdit={editStore}
          onDelete={removeStore}
        />
      </Panel>
      {editable && (
        <Panel
          title={
            editingDevice ? `Edit device “${editingDevice.device.DeviceId}”` : 'New physical device'
          }
          headingRef={deviceHeading}
          className="device-form"
        >
          <Notice
            status={deviceStatus}
            error={deviceForm.message ?? deviceError}
            noticeRef={deviceNotice}
          />
          <DeviceForm
            state={deviceForm}
            editing={editingDevice}
            stores={stores}
            onSaved={deviceSaved}
            onCancel={cancelDeviceEdit}
          />
        </Panel>
      )}
      <Panel title="Physical devices" className="devices-list">
        <DeviceList
          list={devices}
          skip={deviceSkip}
          onPage={setDeviceSkip}
          editable={editable}
          onEdit={editDevice}
          onDelete={removeDevice}
        />
      </Panel>
    </div>
  );
}
