import { describe, expect, it } from 'vitest';
import { useTestApi, useTenant } from '../../support/test-api.ts';
import { CATALOG, unique } from '../catalog/catalog-fixtures.ts';

const api = useTestApi();
const acme = useTenant(api, 'acme');

describe('smoke', () => {
  it('records', async () => {
    const r = await api.call({
      method: 'POST',
      url: `${CATALOG}/brand`,
      tenant: acme,
      body: { Name: unique('B') },
      headers: { 'user-agent': 'smoke/1', 'idempotency-key': 'k-1' },
    });
    expect(r.statusCode).toBe(201);
    const id = r.json<{ Id: number }>().Id;
    await api.call({
      method: 'PUT',
      url: `${CATALOG}/brand/${id}`,
      tenant: acme,
      body: { Name: unique('C') },
    });
    await api.call({ method: 'DELETE', url: `${CATALOG}/brand/${id}`, tenant: acme });
    const rows = await api.database.handle.query(
      'select resource, resource_id, action, version, actor, actor_key, context, data from change_history order by id',
    );
    console.log(JSON.stringify(rows, null, 1));
    const ev = await api.database.handle.query('select type, actor from events order by id');
    console.log(JSON.stringify(ev));
  });
});
