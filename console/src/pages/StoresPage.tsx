// Stores and physical devices: the map of every store (with its devices), the paged lists, and
// forms to add a store and to register a physical device in a store.
import { useState, type FormEvent } from 'react';
import { call, client } from '../api.ts';
import { allPages } from '../catalog.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  PagedTable,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';
import { StoreMap } from '../StoreMap.tsx';

const TAKE = 50;
/** The map draws at most this many stores and devices. */
const MAP_LIMIT = 5000;

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
  const action = useAction();
  const [store, setStore] = useState({ Name: '', Address: '', Latitude: '', Longitude: '' });
  const [device, setDevice] = useState({ DeviceId: '', Description: '', StoreId: '' });
  const [stores, allDevices] = all.data ?? [[], []];
  const reload = () => {
    all.reload();
    storeList.reload();
    devices.reload();
  };

  const createStore = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await call(
        client.POST('/management/company/store', {
          body: {
            Name: store.Name.trim(),
            Address: store.Address.trim() || null,
            Location: { Latitude: Number(store.Latitude), Longitude: Number(store.Longitude) },
          },
        }),
      );
      setStore({ Name: '', Address: '', Latitude: '', Longitude: '' });
      reload();
    });
  };
  const createDevice = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await call(
        client.POST('/management/company/physicaldevices', {
          body: {
            DeviceId: device.DeviceId.trim(),
            Description: device.Description.trim() || null,
            StoreId: device.StoreId === '' ? null : Number(device.StoreId),
          },
        }),
      );
      setDevice({ DeviceId: '', Description: '', StoreId: device.StoreId });
      reload();
    });
  };
  const storeOptions = stores.map((s) => ({ value: String(s.Id), label: s.Name }));

  return (
    <>
      <PageTitle>Stores and devices</PageTitle>
      <ErrorMessage error={all.error ?? storeList.error ?? devices.error ?? action.error} />
      {all.loading && !all.data && <Loading />}
      <Section title="Map">
        <StoreMap stores={stores} devices={allDevices} />
        {stores.length === MAP_LIMIT && (
          <p className="muted">The map shows the first {MAP_LIMIT} stores.</p>
        )}
      </Section>
      {editable && (
        <Section title="New store">
          <form className="row" onSubmit={createStore}>
            <Field
              label="Store name"
              required
              value={store.Name}
              onChange={(Name) => setStore({ ...store, Name })}
            />
            <Field
              label="Address"
              value={store.Address}
              onChange={(Address) => setStore({ ...store, Address })}
            />
            <Field
              label="Latitude"
              type="number"
              step="any"
              required
              value={store.Latitude}
              onChange={(Latitude) => setStore({ ...store, Latitude })}
            />
            <Field
              label="Longitude"
              type="number"
              step="any"
              required
              value={store.Longitude}
              onChange={(Longitude) => setStore({ ...store, Longitude })}
            />
            <button type="submit" disabled={action.busy}>
              Create store
            </button>
          </form>
        </Section>
      )}
      <Section title="Stores">
        <PagedTable
          caption="Stores"
          total={storeList.data?.TotalCount ?? 0}
          headers={['Id', 'Name', 'Address', 'Latitude, longitude']}
          skip={storeSkip}
          take={TAKE}
          onPage={setStoreSkip}
        >
          {(storeList.data?.Results ?? []).map((s) => (
            <tr key={s.Id}>
              <td data-label="Id">{s.Id}</td>
              <td data-label="Name">{s.Name}</td>
              <td data-label="Address">{s.Address}</td>
              <td data-label="Latitude, longitude">
                {s.Location.Latitude}, {s.Location.Longitude}
              </td>
            </tr>
          ))}
        </PagedTable>
      </Section>
      {editable && (
        <Section title="New physical device">
          <form className="row" onSubmit={createDevice}>
            <Field
              label="Device id"
              required
              value={device.DeviceId}
              onChange={(DeviceId) => setDevice({ ...device, DeviceId })}
            />
            <Field
              label="Device description"
              value={device.Description}
              onChange={(Description) => setDevice({ ...device, Description })}
            />
            <Select
              label="Store"
              value={device.StoreId}
              onChange={(StoreId) => setDevice({ ...device, StoreId })}
              empty="(no store)"
              options={storeOptions}
            />
            <button type="submit" disabled={action.busy}>
              Register device
            </button>
          </form>
        </Section>
      )}
      <Section title="Physical devices">
        {devices.data && (
          <PagedTable
            caption="Physical devices"
            total={devices.data.TotalCount}
            headers={['Device id', 'Description', 'Store']}
            skip={deviceSkip}
            take={TAKE}
            onPage={setDeviceSkip}
          >
            {devices.data.Results.map((d) => (
              <tr key={d.DeviceId}>
                <td data-label="Device id">{d.DeviceId}</td>
                <td data-label="Description">{d.Description}</td>
                <td data-label="Store">{d.StoreName}</td>
              </tr>
            ))}
          </PagedTable>
        )}
      </Section>
    </>
  );
}
