// GET /company/stores/{longitude};{latitude}/logicaldevices (contract §5.5): the nearest store
// by great-circle distance on the WGS84 mean radius, checked against known values across the
// antimeridian and near the poles; ties, the search distance, parsing and filters.
import { beforeAll, describe, expect, it } from 'vitest';
import { chordForKm, greatCircleKm, kmForChord } from '../../../src/modules/company/geo.ts';
import { useTestApi, useTenant, type TestTenant } from '../../support/test-api.ts';
import {
  createApp,
  createDeviceType,
  createLogicalDevice,
  createPhysicalDevice,
  createStore,
  MANAGEMENT,
  type LogicalDeviceJson,
} from './company-fixtures.ts';
import { expectError, expectStatus } from '../../support/expectations.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');
const globex = useTenant(api, 'globex');
let token: string;
let tenantCount = 0;

beforeAll(async () => {
  const consumer = await createApp(api, acme, 1);
  token = await api.issueToken(acme, consumer.id, consumer.secret);
});

/** One degree of a great circle on the WGS84 mean radius (6371.0088 km). */
const ONE_DEGREE_KM = (2 * Math.PI * 6371.0088) / 360; // 111.19508…

/** A fresh tenant with one store (and one logical device) per location; answers their ids. */
async function tenantWithStores(...locations: [number, number][]) {
  const tenant = await api.createTenant(`geo${++tenantCount}`);
  const stores: { id: number; device: string }[] = [];
  for (const [longitude, latitude] of locations) {
    const store = await createStore(api, tenant, longitude, latitude);
    const physical = await createPhysicalDevice(api, tenant, store.Id);
    const logical = await createLogicalDevice(api, tenant, physical.DeviceId);
    stores.push({ id: store.Id, device: logical.DeviceId });
  }
  return { tenant, stores };
}

const near = (tenant: TestTenant, location: string, query = '', as?: string) =>
  api.call({
    url: `/company/stores/${location}/logicaldevices${query}`,
    tenant,
    ...(as ? { token: as } : {}),
  });
const devicesNear = async (tenant: TestTenant, location: string, query = '') => {
  const response = await near(tenant, location, query);
  expectStatus(response, 200);
  return response.json<{ Data: LogicalDeviceJson[] }>().Data.map((d) => d.DeviceId);
};

describe('great-circle distances (geo.ts)', () => {
  it('match known values on the mean radius', () => {
    expect(
      greatCircleKm({ longitude: 179.5, latitude: 0 }, { longitude: -179.5, latitude: 0 }),
    ).toBeCloseTo(ONE_DEGREE_KM, 6);
    expect(
      greatCircleKm({ longitude: 0, latitude: 89.5 }, { longitude: 180, latitude: 89.5 }),
    ).toBeCloseTo(ONE_DEGREE_KM, 6);
    expect(
      greatCircleKm({ longitude: 0, latitude: 90 }, { longitude: 0, latitude: -90 }),
    ).toBeCloseTo(20015.114, 3);
    // London to Paris, a commonly quoted 343.5 km.
    expect(
      greatCircleKm(
        { longitude: -0.1278, latitude: 51.5074 },
        { longitude: 2.3522, latitude: 48.8566 },
      ),
    ).toBeCloseTo(343.56, 1);
  });

  it('turn kilometres into index chords and back', () => {
    for (const km of [0, 0.001, 5, 111.19508, 5000, 20015.08])
      expect(kmForChord(chordForKm(km))).toBeCloseTo(km, 6);
    expect(chordForKm(1e9)).toBe(2 * 6378168);
  });
});

describe('GET /company/stores/{longitude};{latitude}/logicaldevices', () => {
  it('finds the store across the antimeridian at the known distance', async () => {
    const { tenant, stores } = await tenantWithStores([179.5, 0]);
    // -179.5;0 is exactly one degree (111.195 km) from 179.5;0 along the equator.
    expectError(
      await near(tenant, '-179.5;0', `?searchDistance=${ONE_DEGREE_KM - 0.01}`),
      404,
      'NoStoreInRange',
    );
    expect(
      await devicesNear(tenant, '-179.5;0', `?searchDistance=${ONE_DEGREE_KM + 0.01}`),
    ).toEqual([stores[0]!.device]);
  });

  it('prefers the store across the antimeridian when it is nearer', async () => {
    const { tenant, stores } = await tenantWithStores([179.7, 0], [-179.95, 0]);
    // From 179.9: -179.95 is 0.15° away, 179.7 is 0.2°.
    expect(await devicesNear(tenant, '179.9;0', '?searchDistance=100')).toEqual([
      stores[1]!.device,
    ]);
  });

  it('measures across the north pole and near the south pole', async () => {
    const north = await tenantWithStores([0, 89.5]);
    expectError(
      await near(north.tenant, '180;89.5', `?searchDistance=${ONE_DEGREE_KM - 0.01}`),
      404,
    );
    expect(
      await devicesNear(north.tenant, '180;89.5', `?searchDistance=${ONE_DEGREE_KM + 0.01}`),
    ).toEqual([north.stores[0]!.device]);
    // 0.2° across the south pole: 22.239 km.
    const south = await tenantWithStores([45, -89.9], [45, -89.5]);
    const km = greatCircleKm(
      { longitude: 45, latitude: -89.9 },
      { longitude: -135, latitude: -89.9 },
    );
    expect(km).toBeCloseTo(0.2 * ONE_DEGREE_KM, 6);
    expectError(await near(south.tenant, '-135;-89.9', `?searchDistance=${km - 0.01}`), 404);
    expect(await devicesNear(south.tenant, '-135;-89.9', `?searchDistance=${km + 0.01}`)).toEqual([
      south.stores[0]!.device,
    ]);
  });

  it('chooses the nearest of several and breaks ties by the lowest store id', async () => {
    const { tenant, stores } = await tenantWithStores([29.02, 41], [29.01, 41], [29.01, 41]);
    expect(await devicesNear(tenant, '29;41')).toEqual([stores[1]!.device]);
    expect(await devicesNear(tenant, '29.03;41')).toEqual([stores[0]!.device]);
  });

  it('searches 5 km by default', async () => {
    // 0.04° of latitude = 4.448 km; 0.05° = 5.560 km.
    const inRange = await tenantWithStores([10, 10.04]);
    expect(await devicesNear(inRange.tenant, '10;10')).toEqual([inRange.stores[0]!.device]);
    const outOfRange = await tenantWithStores([10, 10.05]);
    expectError(await near(outOfRange.tenant, '10;10'), 404, 'NoStoreInRange');
  });

  it('answers 404 when the tenant has no stores, and an empty list for a store without devices', async () => {
    const empty = await api.createTenant(`geo${++tenantCount}`);
    expectError(await near(empty, '0;0', '?searchDistance=20000'), 404, 'NoStoreInRange');
    await createStore(api, empty, 0, 0);
    expect(await devicesNear(empty, '0;0')).toEqual([]);
  });

  it('accepts an encoded semicolon, signs and whitespace-free decimals', async () => {
    const { tenant, stores } = await tenantWithStores([-73.9857, 40.7484]);
    const expected = [stores[0]!.device];
    expect(await devicesNear(tenant, '-73.9857;40.7484')).toEqual(expected);
    expect(await devicesNear(tenant, '-73.9857%3B40.7484')).toEqual(expected);
    expect(await devicesNear(tenant, '-73.985;+40.748')).toEqual(expected);
  });

  it.each(['29,0;41,0', '29;', ';41', 'abc', '181;0', '0;-90.5', '1e2;0', '0;0;0'])(
    'refuses the location %s with 400 InvalidLocation',
    async (location) => {
      expectError(await near(acme, location), 400, 'InvalidLocation');
    },
  );

  it.each([
    'searchDistance=-1',
    'searchDistance=abc',
    'searchDistance=30000',
    'metadataKey=a',
    'metadataValue=b',
  ])('refuses %s with 400', async (query) => {
    expectError(await near(acme, '0;0', `?${query}`), 400);
  });

  it('lists only unexpired devices and applies the filters', async () => {
    const { tenant, stores } = await tenantWithStores([5, 5]);
    const physical = await createPhysicalDevice(api, tenant, stores[0]!.id);
    const kiosk = await createDeviceType(api, tenant, 'Kiosk');
    const tagged = await createLogicalDevice(api, tenant, physical.DeviceId, {
      DeviceTypeId: kiosk.Id,
      Metadata: [{ Key: 'screen', Value: 'large' }],
    });
    const expired = await createLogicalDevice(api, tenant, physical.DeviceId);
    await api.database.handle.query(
      `update logical_devices set expiration_date = now() - interval '1 minute' where id = $1`,
      [expired.DeviceId],
    );
    expect((await devicesNear(tenant, '5;5')).sort()).toEqual(
      [stores[0]!.device, tagged.DeviceId].sort(),
    );
    expect(await devicesNear(tenant, '5;5', `?deviceTypeId=${kiosk.Id}`)).toEqual([
      tagged.DeviceId,
    ]);
    const response = await near(
      tenant,
      '5;5',
      '?metadataKey=screen&metadataValue=large&includeMetadata=true',
    );
    expect(response.json()).toEqual({ Data: [tagged] });
    expect(await devicesNear(tenant, '5;5', '?metadataKey=screen&metadataValue=small')).toEqual([]);
  });

  it('answers each device as the management routes show it, with or without Metadata', async () => {
    const tenant = await api.createTenant(`geo${++tenantCount}`);
    const store = await createStore(api, tenant, 7, 7);
    const physical = await createPhysicalDevice(api, tenant, store.Id);
    const kiosk = await createDeviceType(api, tenant, 'Kiosk "ğüşiöç" €');
    const dated = await createLogicalDevice(api, tenant, physical.DeviceId, {
      Description: 'Ekran "büyük" \\ ışık',
      DeviceTypeId: kiosk.Id,
      ExpirationDate: '2999-01-02T03:04:05.678Z',
      Metadata: [
        { Key: 'z', Value: 'ş' },
        { Key: 'a', Value: '"quoted"' },
      ],
    });
    const plain = await createLogicalDevice(api, tenant, physical.DeviceId);
    const shown = async (deviceId: string) => {
      const response = await api.call({
        url: `${MANAGEMENT}/physicaldevices/${physical.DeviceId}/devices/${deviceId}`,
        tenant,
      });
      expectStatus(response, 200);
      return response.json<LogicalDeviceJson>();
    };
    const expected = [await shown(dated.DeviceId), await shown(plain.DeviceId)].sort((a, b) =>
      a.DeviceId < b.DeviceId ? -1 : 1,
    );
    expect(expected.find((d) => d.DeviceId === dated.DeviceId)).toMatchObject({
      ExpirationDate: '2999-01-02T03:04:05.678Z',
      DeviceTypeDescription: 'Kiosk "ğüşiöç" €',
    });
    const withMetadata = await near(tenant, '7;7', '?includeMetadata=true');
    expectStatus(withMetadata, 200);
    expect(withMetadata.headers['content-type']).toMatch(/^application\/json/);
    expect(withMetadata.json()).toEqual({ Data: expected });
    const without = await near(tenant, '7;7');
    expect(without.json()).toEqual({
      Data: expected.map(({ Metadata: _metadata, ...device }) => device),
    });
  });

  it('works with any public token; tenants see only their own stores', async () => {
    await createStore(api, globex, 100, 0);
    expectError(await near(acme, '100;0', '?searchDistance=1'), 404);
    // A Consumer app's plain token (no identity) is enough.
    await createStore(api, acme, 50, 50);
    expectStatus(await near(acme, '50;50', '', token), 200);
    expectError(await near(globex, '100;0', '', acme.token), 401);
  });
});
