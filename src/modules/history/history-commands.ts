// `history export|verify`: the history module's commands of the CLI (src/cli/cli-command.ts).
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { cliCommand, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import type { HistoryServices } from './history-module.ts';
import { exportLines } from './history-export.ts';
import { verifyChain, verifyExport } from './history-verify.ts';

const exportOptions = {
  tenant: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  'resource-type': { type: 'string' },
} as const;
const verifyOptions = { tenant: { type: 'string' }, file: { type: 'string' } } as const;

function tenantOption(value: string | undefined): string {
  if (!value) throw new UsageError('--tenant <name> is required.');
  return value;
}

function timeOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (
    !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) ||
    Number.isNaN(Date.parse(value))
  )
    throw new UsageError(`--${name} must be an ISO date or date-time (2026-01-31T00:00:00Z).`);
  return value;
}

const exportCommand = cliCommand<HistoryServices, typeof exportOptions>({
  name: 'history',
  subcommand: 'export',
  usage:
    '  history export --tenant <name> [--from <ISO>] [--to <ISO>] [--resource-type <kind>]\n' +
    "                               a tenant's sealed change history as NDJSON on stdout, oldest\n" +
    '                               first (changed from --from, before --to)',
  options: exportOptions,
  async run({ options }, withServices) {
    const tenantName = tenantOption(options.tenant);
    const from = timeOption('from', options.from);
    const to = timeOption('to', options.to);
    const resourceType = options['resource-type'];
    await withServices(async (history, context) => {
      const tenant = await context.tenant(tenantName);
      const lines = exportLines(history.database, tenant.id, {
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        ...(resourceType !== undefined ? { resourceType } : {}),
      });
      for await (const line of lines)
        if (!process.stdout.write(line)) await once(process.stdout, 'drain');
    });
  },
});

const verifyCommand = cliCommand<HistoryServices, typeof verifyOptions>({
  name: 'history',
  subcommand: 'verify',
  usage:
    '  history verify --tenant <name> [--file <export.ndjson>]\n' +
    "                               check a tenant's hash chain (or an export file, and that its\n" +
    '                               entries are still in the database): exit 1 naming the first\n' +
    '                               missing or altered entry',
  options: verifyOptions,
  async run({ options }, withServices) {
    const tenantName = tenantOption(options.tenant);
    const file = options.file;
    const verdict = await withServices(async (history, context) => {
      const tenant = await context.tenant(tenantName);
      if (file === undefined) return verifyChain(history.database, tenant.id);
      const input = createReadStream(file, 'utf8');
      const opened = once(input, 'open').catch(() => {
        throw new UsageError(`Cannot read ${file}.`);
      });
      await opened;
      const lines = createInterface({ input, crlfDelay: Infinity });
      try {
        return await verifyExport(lines, tenant.id, history.database);
      } finally {
        lines.close();
        input.destroy();
      }
    });
    if (!verdict.intact) throw new UsageError(verdict.problem);
    const what = file === undefined ? `The change history of "${tenantName}"` : file;
    const range = verdict.count ? ` (Sequence ${verdict.first}..${verdict.last})` : '';
    const pruned = verdict.pruned ? `; ${verdict.pruned} of them pruned since the export` : '';
    console.log(`${what} is intact: ${verdict.count} entries${range}${pruned}.`);
  },
});

export const historyCommands: readonly CliCommand<HistoryServices>[] = [
  exportCommand,
  verifyCommand,
];
