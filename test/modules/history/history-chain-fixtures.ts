// What the change history's chain tests share: changes made through the API, the entries as
// stored, and the `omni history` commands run in process on the test's services.
import type { TestApi, TestTenant } from '../../support/test-api.ts';
import { CATALOG } from '../catalog/catalog-fixtures.ts';
import { historyCommands } from '../../../src/modules/history/history-module.ts';
import { UsageError } from '../../../src/cli/cli-command.ts';

/** Sealing runs when a test asks (the background pass waits an hour). */
export const HISTORY_ENV = { HISTORY_SEAL_INTERVAL_MS: '3600000' };

let counter = 0;

/** Makes `n` history entries in the tenant (brands created); answers their ids. */
export async function makeChanges(api: TestApi, tenant: TestTenant, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api.call({
      method: 'POST',
      url: `${CATALOG}/brand`,
      tenant,
      body: { Name: `Brand ${++counter}` },
    });
    if (r.statusCode !== 201) throw new Error(`brand not created: ${r.statusCode} ${r.body}`);
    ids.push(r.json<{ Id: number }>().Id);
  }
  return ids;
}

export async function tenantId(api: TestApi, tenant: TestTenant): Promise<number> {
  return (await api.services.tenants.findByName(tenant.name))!.id;
}

export interface Entry {
  id: number;
  seq: number | null;
  hash: string | null;
  resource: string;
  data: string | null;
}

export async function entries(api: TestApi, tenant: TestTenant): Promise<Entry[]> {
  return api.database.handle.query<Entry>(
    'select id, seq, hash, resource, data from change_history where tenant_id = $1 order by id',
    [await tenantId(api, tenant)],
  );
}

/** Runs `omni history <subcommand>`: answers what it printed, or its exit 1 message. */
export async function omniHistory(
  api: TestApi,
  subcommand: 'export' | 'verify',
  options: Record<string, string>,
): Promise<{ exitCode: 0 | 1; output: string }> {
  const command = historyCommands.find((c) => c.subcommand === subcommand)!;
  const printed: string[] = [];
  const log = console.log;
  const write = process.stdout.write.bind(process.stdout);
  console.log = (line: string) => printed.push(`${line}\n`);
  process.stdout.write = (chunk: string) => printed.push(chunk) > 0;
  try {
    await command.run({ args: [], options }, (work) =>
      work(api.services.history, {
        config: api.config,
        urls: undefined as never,
        tenant: async (name) => {
          const tenant = await api.services.tenants.findByName(name);
          if (!tenant) throw new UsageError(`Tenant "${name}" does not exist.`);
          return tenant;
        },
      }),
    );
    return { exitCode: 0, output: printed.join('') };
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 1, output: error.message };
    throw error;
  } finally {
    console.log = log;
    process.stdout.write = write;
  }
}
