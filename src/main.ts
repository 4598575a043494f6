// CLI entry: `serve` (npm start), `migrate`, `distribute`, `tenant`, `member`, `keys`, `endpoint`,
// `analytics` and `catalog` commands (USAGE below).
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { createServices, type Services } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { openDatabase } from './db/database.ts';
import { awaitsDistribution, distributeExisting } from './db/distribution.ts';
import { migrateDatabase } from './schema.ts';
import { DomainError } from './domain/domain-error.ts';
import type { ImportJob } from './modules/catalog/catalog-module.ts';
import { publicUrls } from './http/public-urls.ts';
import { ensureConsoleBuilt } from './modules/console/console-module.ts';
import { TenantExistsError, TenantNameError } from './modules/tenants/tenants-module.ts';
import { serve } from './server.ts';

const USAGE = `Usage: npm run -s omni -- <command>
  serve                        run the API server (what npm start does)
  migrate                      apply pending database migrations
  distribute [--online-from <rows>]
                               distribute a database that holds data on its Citus cluster: tables
                               of 10,000 rows or more online, smaller ones with their writes held
                               for the copy
  tenant create <name> [--json]  create a tenant, its bootstrap management app and its owner
  member create <tenant> <username> [--role <id>]… [--name <text>] [--json]
                               create a console member; prints a one-time password
  tenant list [--json]         list tenants
  tenant delete <name>         delete a tenant and everything it owns
  keys rotate                  start signing tokens with a new key
  endpoint status <tenant>     the tenant's integration endpoint, with the reason of a failure
  analytics detach --before YYYY-MM   detach the analytics partitions of the months before
  analytics trending --date YYYY-MM-DD [tenant]   compute that day's trending items now
  catalog import <tenant> <file> [--format jsonl|csv] [--skip-failed] [--create-missing]
                               import items from a JSONL or CSV file, with a progress bar`;

class UsageError extends Error {}

const AWAITS_DISTRIBUTION =
  'This database has the citus extension and holds data that is not distributed yet: ' +
  'run `npm run omni -- distribute` (docs/operations.md, "Citus").';

/** npm start builds the web console first when its build is missing or stale (docs/console.md). */
function buildConsoleIfStale(): void {
  try {
    const built = ensureConsoleBuilt();
    if (built) console.log(built);
  } catch (error) {
    // The API does not depend on the console: serve it anyway; /console/ answers 503 meanwhile.
    console.error(error instanceof Error ? error.message : String(error));
  }
}

/** A command's database: failures nobody waits for are printed, and a lost lock ends the command. */
function openCommandDatabase(config: Config) {
  return openDatabase({
    ...config,
    onBackgroundError: (error, what) => {
      console.error(
        what === 'lock'
          ? `The lock on DATA_DIR=${config.dataDir} was lost (${error.message}); stopping.`
          : `An idle database connection failed: ${error.message}`,
      );
      if (what === 'lock') process.exit(1);
    },
  });
}

async function withServices<T>(config: Config, fn: (services: Services) => Promise<T>): Promise<T> {
  const database = await openCommandDatabase(config);
  try {
    await migrateDatabase(database);
    return await fn(createServices(config, database));
  } finally {
    await database.close();
  }
}

async function tenantCommand(config: Config, args: string[], json: boolean): Promise<void> {
  const [action, name] = args;
  if (action === 'create' && name) {
    await withServices(config, async ({ tenants }) => {
      const { tenant, bootstrapApp, owner } = await tenants.create(name);
      const baseUrl = publicUrls(config).tenantBaseUrl(tenant.name);
      if (json) {
        console.log(
          JSON.stringify({
            Tenant: tenant.name,
            ApplicationId: bootstrapApp.ApplicationId,
            ApplicationSecret: bootstrapApp.ApplicationSecret,
            BaseUrl: baseUrl,
            OwnerUsername: owner.Username,
            OwnerPassword: owner.Password,
          }),
        );
      } else {
        console.log(`Tenant "${tenant.name}" created at ${baseUrl}`);
        console.log(`Bootstrap management app (the secret is shown only now):`);
        console.log(`  ApplicationId:     ${bootstrapApp.ApplicationId}`);
        console.log(`  ApplicationSecret: ${bootstrapApp.ApplicationSecret}`);
        console.log(
          `Owner (signs in to the console; a new password is chosen at the first sign-in):`,
        );
        console.log(`  Username: ${owner.Username}`);
        console.log(`  One-time password: ${owner.Password}`);
        console.log(`  Console: ${baseUrl}/console/`);
      }
    });
  } else if (action === 'list') {
    await withServices(config, async ({ tenants }) => {
      const all = await tenants.list();
      if (json)
        console.log(
          JSON.stringify(
            all.map((t) => ({
              Tenant: t.name,
              BaseUrl: publicUrls(config).tenantBaseUrl(t.name),
              CreatedDate: t.createdAt.toISOString(),
            })),
          ),
        );
      else if (all.length === 0) console.log('No tenants.');
      else
        for (const t of all)
          console.log(
            `${t.name}\t${publicUrls(config).tenantBaseUrl(t.name)}\t${t.createdAt.toISOString()}`,
          );
    });
  } else if (action === 'delete' && name) {
    const deleted = await withServices(config, ({ tenants }) => tenants.delete(name));
    if (!deleted) throw new UsageError(`Tenant "${name}" does not exist.`);
    console.log(`Tenant "${name}" deleted.`);
  } else {
    throw new UsageError(USAGE);
  }
}

async function memberCommand(
  config: Config,
  args: string[],
  options: { role?: string[] | undefined; name?: string | undefined; json: boolean },
): Promise<void> {
  const [action, tenantName, username] = args;
  if (action !== 'create' || !tenantName || !username) throw new UsageError(USAGE);
  await withServices(config, async ({ tenants, members }) => {
    const tenant = await tenants.findByName(tenantName);
    if (!tenant) throw new UsageError(`Tenant "${tenantName}" does not exist.`);
    const roles = options.role?.length ? options.role : ['owner'];
    let created;
    try {
      created = await members.members.createWithPassword(
        tenant.id,
        username,
        roles,
        options.name ?? username,
      );
    } catch (error) {
      if (error instanceof DomainError) throw new UsageError(error.message);
      throw error;
    }
    const { member, password } = created;
    if (options.json) {
      console.log(
        JSON.stringify({
          Tenant: tenant.name,
          Id: member.Id,
          Username: member.Username,
          Roles: member.Roles.map((r) => r.Id),
          Password: password,
        }),
      );
      return;
    }
    console.log(`Member "${member.Username}" created in tenant "${tenant.name}" (${member.Id}).`);
    console.log(`  Roles: ${member.Roles.map((r) => r.Id).join(', ')}`);
    console.log(`  One-time password (shown only now; a new one is chosen at the first sign-in):`);
    console.log(`  ${password}`);
  });
}

async function analyticsCommand(
  config: Config,
  args: string[],
  options: { before?: string | undefined; date?: string | undefined },
): Promise<void> {
  const [action, tenantName] = args;
  if (action === 'detach' && options.before) {
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(options.before))
      throw new UsageError('--before must be a month, YYYY-MM.');
    const detached = await withServices(config, ({ analytics }) =>
      analytics.detachPartitionsBefore(options.before!),
    );
    console.log(
      detached.length
        ? `Detached (kept as standalone tables): ${detached.join(', ')}`
        : 'No analytics partition ends before that month.',
    );
  } else if (action === 'trending' && options.date) {
    const date = options.date;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
      throw new UsageError('--date must be a date, YYYY-MM-DD.');
    await withServices(config, async ({ analytics, tenants }) => {
      if (tenantName) {
        const tenant = await tenants.findByName(tenantName);
        if (!tenant) throw new UsageError(`Tenant "${tenantName}" does not exist.`);
        const n = await analytics.trending.run(tenant.id, date);
        console.log(`${tenantName}: ${n} trending item records for ${date}.`);
      } else {
        const written = await analytics.trending.runAll(date);
        const total = [...written.values()].reduce((a, b) => a + b, 0);
        console.log(`${total} trending item records for ${date} over ${written.size} tenants.`);
      }
    });
  } else {
    throw new UsageError(USAGE);
  }
}

/** One line of progress, rewritten in place on a terminal. */
function progressLine(job: ImportJob): string {
  const width = 30;
  const filled = Math.round((job.Percentage / 100) * width);
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${job.Percentage.toFixed(1)}% ` +
    `${job.Phase === 'Validating' ? 'validated' : 'read'} ${job.RowsRead}, written ${job.RowsWritten}, ` +
    `failed ${job.RowsFailed}, ${Math.round(job.RowsPerSecond)} rows/s`
  );
}

async function catalogCommand(
  config: Config,
  args: string[],
  options: { format?: string | undefined; 'skip-failed': boolean; 'create-missing': boolean },
): Promise<void> {
  const [action, tenantName, file] = args;
  if (action !== 'import' || !tenantName || !file) throw new UsageError(USAGE);
  const format = options.format ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl');
  if (format !== 'jsonl' && format !== 'csv')
    throw new UsageError('--format must be jsonl or csv.');
  await withServices(config, async ({ catalog, tenants }) => {
    const tenant = await tenants.findByName(tenantName);
    if (!tenant) throw new UsageError(`Tenant "${tenantName}" does not exist.`);
    const job = await catalog.imports.create(
      tenant.id,
      publicUrls(config).tenantBaseUrl(tenant.name),
      {
        format,
        errorPolicy: options['skip-failed'] ? 'SkipFailedRows' : 'RejectAll',
        createMissing: options['create-missing'],
      },
      { body: createReadStream(file), mimeType: undefined },
      false,
    );
    const tty = process.stderr.isTTY;
    let last = job;
    await catalog.imports.run(tenant.id, job.Id, (progress) => {
      last = progress;
      if (tty) process.stderr.write(`\r${progressLine(progress)}`);
    });
    if (tty) process.stderr.write('\n');
    console.log(`Import ${last.Id}: ${last.State}. ${progressLine(last)}`);
    if (last.Error) console.log(last.Error);
    if (last.RowsFailed > 0)
      for await (const text of catalog.imports.results(tenant.id, job.Id))
        for (const line of text.split('\n')) if (line.includes('"Failed"')) console.log(line);
    if (last.State !== 'Succeeded') process.exitCode = 1;
  });
}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      before: { type: 'string' },
      date: { type: 'string' },
      role: { type: 'string', multiple: true },
      name: { type: 'string' },
      format: { type: 'string' },
      'skip-failed': { type: 'boolean', default: false },
      'create-missing': { type: 'boolean', default: false },
      'online-from': { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      buildConsoleIfStale();
      await serve(config);
      return;
    case 'migrate': {
      const database = await openCommandDatabase(config);
      try {
        const versions = await migrateDatabase(database);
        console.log(
          versions.length ? `Applied: ${versions.join(', ')}` : 'Migrations are up to date.',
        );
        if (await awaitsDistribution(database)) console.log(AWAITS_DISTRIBUTION);
      } finally {
        await database.close();
      }
      return;
    }
    case 'distribute': {
      if (!config.databaseUrl)
        throw new UsageError('distribute needs DATABASE_URL: the coordinator of a Citus cluster.');
      const database = await openCommandDatabase(config);
      try {
        await migrateDatabase(database);
      } finally {
        await database.close();
      }
      const onlineFrom =
        values['online-from'] === undefined ? undefined : Number(values['online-from']);
      if (onlineFrom !== undefined && !(Number.isInteger(onlineFrom) && onlineFrom >= 0))
        throw new UsageError('--online-from takes a number of rows (a whole number, 0 or more).');
      const done = await distributeExisting(config.databaseUrl, (line) => console.log(line), {
        ...(onlineFrom === undefined ? {} : { onlineFrom }),
      });
      console.log(
        `Distributed: ${done.online.length + done.blocking.length} tables by tenant_id ` +
          `(${done.blocking.length} of them with their writes held), ${done.reference.length} reference tables.`,
      );
      return;
    }
    case 'tenant':
      await tenantCommand(config, rest, values.json);
      return;
    case 'endpoint': {
      const name = rest[1];
      if (rest[0] !== 'status' || !name) throw new UsageError(USAGE);
      await withServices(config, async ({ tenants, integration }) => {
        const tenant = await tenants.findByName(name);
        if (!tenant) throw new UsageError(`Tenant "${name}" does not exist.`);
        const row = await integration.endpoints.row(tenant.id);
        if (!row) {
          console.log(`Tenant "${name}" has no integration endpoint.`);
          return;
        }
        const status =
          { 1: 'in progress', 2: 'succeeded', 3: 'failed' }[row.status] ?? String(row.status);
        console.log(
          `${row.serviceName}: status ${row.status} (${status}), tier ${row.serviceTier}, created ${row.createdAt.toISOString()}`,
        );
        if (row.failureReason) console.log(`Failure reason: ${row.failureReason}`);
      });
      return;
    }
    case 'analytics':
      await analyticsCommand(config, rest, values);
      return;
    case 'member':
      await memberCommand(config, rest, values);
      return;
    case 'catalog':
      await catalogCommand(config, rest, values);
      return;
    case 'keys':
      if (rest[0] !== 'rotate') throw new UsageError(USAGE);
      await withServices(config, async ({ oauth }) => {
        await oauth.tokens.keys.load();
        console.log(
          `New signing key ${await oauth.tokens.keys.rotate()}; the previous key verifies until its tokens expire.`,
        );
      });
      return;
    default:
      throw new UsageError(USAGE);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof UsageError ||
    error instanceof TenantNameError ||
    error instanceof TenantExistsError
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
