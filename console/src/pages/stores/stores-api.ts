// The company module's calls for the Stores page: every store and device for the map (the first
// MAP_LIMIT), the paged lists, a store or device fetched with its ETag for editing.
import { call, client } from '../../api.ts';
import { allPages } from '../../catalog.ts';
import { callTagged } from '../../query.ts';
import { sameName } from '../../same-name.ts';
import type { Store } from '../../types.ts';

export const PAGE_SIZE = 50;
/** The map draws at most this many stores and devices. */
export const MAP_LIMIT = 5000;

export const storeKeys = {
  all: ['stores'] as const,
  map: ['stores', 'map'] as const,
  page: (skip: number) => ['stores', 'page', skip] as const,
  devices: (skip: number) => ['stores', 'devices', skip] as const,
};

/** Every store and device (up to MAP_LIMIT each), for the map and the device form. */
export const loadMap = () =>
  Promise.all([
    allPages(
      (range) => client.GET('/management/company/stores', { params: { query: range } }),
      MAP_LIMIT,
    ),
    allPages(
      (range) => client.GET('/management/company/physicaldevices', { params: { query: range } }),
      MAP_LIMIT,
    ),
  ]);

export const loadStorePage = (skip: number) =>
  call(client.GET('/management/company/stores', { params: { query: { skip, take: PAGE_SIZE } } }));

export const loadDevicePage = (skip: number) =>
  call(
    client.GET('/management/company/physicaldevices', {
      params: { query: { skip, take: PAGE_SIZE } },
    }),
  );

export const fetchStore = (id: number) =>
  callTagged(client.GET('/management/company/store/{id}', { params: { path: { id } } }));

export const fetchDevice = (physicalDeviceId: string) =>
  callTagged(
    client.GET('/management/company/physicaldevices/{physicalDeviceId}', {
      params: { path: { physicalDeviceId } },
    }),
  );

export const deleteStore = (id: number) =>
  call(client.DELETE('/management/company/store/{id}', { params: { path: { id } } }));

export const deleteDevice = (physicalDeviceId: string) =>
  call(
    client.DELETE('/management/company/physicaldevices/{physicalDeviceId}', {
      params: { path: { physicalDeviceId } },
    }),
  );

/**
 * The tenant's other store named `name` (trimmed, whatever the case), if any: among `loaded`
 * when it holds every store, else from the API.
 */
export async function findNamesake(
  loaded: Store[] | undefined,
  name: string,
  exceptId?: number,
): Promise<Store | undefined> {
  const list =
    loaded && loaded.length < MAP_LIMIT
      ? loaded
      : await allPages((range) =>
          client.GET('/management/company/stores', { params: { query: range } }),
        );
  return list.find((s) => s.Id !== exceptId && sameName(s.Name, name));
}
