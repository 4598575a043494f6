// Records sent with an identity token carry the registered physical device and its store, as the
// company module knows them at that moment (end to end: token endpoint, company, analytics).
import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { MANAGEMENT, createStore, deviceInStore } from '../company/company-fixtures.ts';
import { expectStatus } from '../../support/expectations.ts';
import { ingest, logsOk } from './analytics-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

describe('POST /analytics/logs with an identity token', () => {
  it('stamps the device and its store over whatever the record says, and follows a move', async () => {
    // From before the test's records (not from today's midnight, which may come in between).
    const from = new Date(Date.now() - 60_000).toISOString();
    const first = await createStore(api, acme, 29, 41, 'Kadikoy');
    const second = await createStore(api, acme, 28.9, 41.05, 'Besiktas');
    const device = await deviceInStore(api, acme, first.Id);
    const itemView = (ItemId: number) => ({
      Counter: 'ItemView',
      ItemId,
      ItemTitle: 'Shirt',
      PhysicalDeviceId: 'forged',
      StoreId: 999,
    });
    expectStatus(await ingest(api, acme, [itemView(1)], device.token), 202);

    // The device moves to the other store; its next records name that store.
    const moved = await api.call({
      method: 'PUT',
      url: `${MANAGEMENT}/physicaldevices/${device.physicalDeviceId}`,
      tenant: acme,
      body: { DeviceId: device.physicalDeviceId, Description: 'Till 1', StoreId: second.Id },
    });
    expectStatus(moved, 200);
    expectStatus(await ingest(api, acme, [itemView(2)], device.token), 202);

    const page = await logsOk(
      api,
      acme,
      'ItemView',
      `from=${from}&to=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    const stamps = page.Logs.map((log) => ({
      ItemId: log.ItemId,
      PhysicalDeviceId: log.PhysicalDeviceId,
      PhysicalDeviceDescription: log.PhysicalDeviceDescription,
      StoreId: log.StoreId,
      StoreName: log.StoreName,
    }));
    expect(stamps).toEqual([
      {
        ItemId: 1,
        PhysicalDeviceId: device.physicalDeviceId,
        PhysicalDeviceDescription: expect.any(String) as string,
        StoreId: first.Id,
        StoreName: 'Kadikoy',
      },
      {
        ItemId: 2,
        PhysicalDeviceId: device.physicalDeviceId,
        PhysicalDeviceDescription: 'Till 1',
        StoreId: second.Id,
        StoreName: 'Besiktas',
      },
    ]);
  });

  it('is refused (401) once the device is deleted, and nothing is stored', async () => {
    const store = await createStore(api, acme);
    const device = await deviceInStore(api, acme, store.Id);
    const deleted = await api.call({
      method: 'DELETE',
      url: `${MANAGEMENT}/physicaldevices/${device.physicalDeviceId}`,
      tenant: acme,
    });
    expectStatus(deleted, 204);
    const refused = await ingest(
      api,
      acme,
      [{ Counter: 'ItemView', ItemId: 77, ItemTitle: 'Gone' }],
      device.token,
    );
    expect(refused.statusCode).toBe(401);
    const [row] = await api.database.handle.query<{ n: number }>(
      'select count(*)::int as n from analytics_logs where item_id = 77',
    );
    expect(row!.n).toBe(0);
  });
});
