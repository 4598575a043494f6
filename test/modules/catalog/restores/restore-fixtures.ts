// Helpers of the restore tests: the restore call, the history entries of a resource as the
// change history keeps them (read from its table: these tests check what the restore writes, the
// history's own routes are tested with them), and the tokens of other actors.
import type { LightMyRequestResponse } from 'fastify';
import type { TestApi, TestTenant } from '../../../support/test-api.ts';
import { createMember, signIn } from '../../members/members-fixtures.ts';
import { CATALOG, unique } from '../catalog-fixtures.ts';

export interface EntryRow {
  action: string;
  version: number;
  actor: { Type: string; Id?: string; Name?: string };
  context: { Restore?: { Resource: string; ResourceId: string; FromVersion: number } };
  data: Record<string, unknown> | null;
}

export function restore(
  api: TestApi,
  tenant: TestTenant,
  resource: 'item' | 'brand' | 'category',
  id: number,
  version: number | string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<LightMyRequestResponse> {
  return api.call({
    method: 'POST',
    url: `${CATALOG}/${resource}/${id}/history/${version}/restore`,
    tenant,
    ...options,
  });
}

/** A resource's entries in version order. */
export async function entriesOf(
  api: TestApi,
  tenant: TestTenant,
  resource: string,
  id: number,
): Promise<EntryRow[]> {
  const tenantId = (await api.services.tenants.findByName(tenant.name))!.id;
  const rows = await api.database.handle.query<{
    action: string;
    version: number;
    actor: string;
    context: string;
    data: string | null;
  }>(
    `select action, version, actor, context, data from change_history
      where tenant_id = $1 and resource = $2 and resource_id = $3 order by version`,
    [tenantId, resource, String(id)],
  );
  return rows.map((row) => ({
    action: row.action,
    version: row.version,
    actor: JSON.parse(row.actor) as EntryRow['actor'],
    context: JSON.parse(row.context) as EntryRow['context'],
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
  }));
}

/** A catalog editor of the tenant, signed in: its member id and token. */
export async function catalogEditor(
  api: TestApi,
  tenant: TestTenant,
): Promise<{ id: string; username: string; token: string }> {
  const username = unique('editor').replace(' ', '-');
  const member = await createMember(api, tenant, username, ['catalog-editor']);
  return { id: member.Id, username, token: (await signIn(api, tenant, username)).access_token };
}

/** A Private app of the tenant (scopes public and private): its id, name and a token. */
export async function privateApp(
  api: TestApi,
  tenant: TestTenant,
): Promise<{ id: string; name: string; token: string }> {
  const name = unique('Private');
  const response = await api.call({
    method: 'POST',
    url: '/management/oauth/apps',
    tenant,
    body: { Name: name, ApplicationTypeId: 2 },
  });
  const app = response.json<{ ApplicationId: string; ApplicationSecret: string }>();
  const token = await api.issueToken(tenant, app.ApplicationId, app.ApplicationSecret);
  return { id: app.ApplicationId, name, token };
}
