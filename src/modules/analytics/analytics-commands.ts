// `analytics detach|trending`: the analytics module's commands of the CLI (src/cli/cli-command.ts).
import { cliCommand, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import type { AnalyticsServices } from './analytics-module.ts';

const before = { before: { type: 'string' } } as const;
const date = { date: { type: 'string' } } as const;

const detach = cliCommand<AnalyticsServices, typeof before>({
  name: 'analytics',
  subcommand: 'detach',
  usage:
    '  analytics detach --before YYYY-MM   detach the analytics partitions of the months before',
  options: before,
  async run({ options }, withServices) {
    const month = options.before;
    if (!month) throw new UsageError();
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
      throw new UsageError('--before must be a month, YYYY-MM.');
    const detached = await withServices((analytics) => analytics.detachPartitionsBefore(month));
    console.log(
      detached.length
        ? `Detached (kept as standalone tables): ${detached.join(', ')}`
        : 'No analytics partition ends before that month.',
    );
  },
});

const trending = cliCommand<AnalyticsServices, typeof date>({
  name: 'analytics',
  subcommand: 'trending',
  usage: "  analytics trending --date YYYY-MM-DD [tenant]   compute that day's trending items now",
  options: date,
  async run({ args: [tenantName], options }, withServices) {
    const day = options.date;
    if (!day) throw new UsageError();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
      throw new UsageError('--date must be a date, YYYY-MM-DD.');
    await withServices(async (analytics, context) => {
      if (tenantName) {
        const tenant = await context.tenant(tenantName);
        const n = await analytics.trending.run(tenant.id, day);
        console.log(`${tenantName}: ${n} trending item records for ${day}.`);
      } else {
        const written = await analytics.trending.runAll(day);
        const total = [...written.values()].reduce((a, b) => a + b, 0);
        console.log(`${total} trending item records for ${day} over ${written.size} tenants.`);
      }
    });
  },
});

export const analyticsCommands: readonly CliCommand<AnalyticsServices>[] = [detach, trending];
