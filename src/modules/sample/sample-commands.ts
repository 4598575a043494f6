// `sample seed|remove`: the sample module's commands of the CLI (src/cli/cli-command.ts).
import { cliCommand, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import type { SampleServices } from './sample-module.ts';
import type { SampleKind } from './sample-records.ts';
import { SAMPLE_DEFAULT_ITEMS, SAMPLE_MAX_ITEMS, type SamplePhase } from './sample-seeder.ts';

const options = {
  tenant: { type: 'string' },
  items: { type: 'string' },
} as const;

const PHASES: Record<SamplePhase, string> = {
  catalog: 'categories, brands, price types, attributes and tags',
  images: 'images',
  items: 'items',
  stores: 'stores and devices',
  activity: 'days of shopper activity',
};

/** What each kind is called in a sentence, one and several. */
const NAMES: Record<SampleKind, [string, string]> = {
  analytics: ['four weeks of shopper activity', 'four weeks of shopper activity'],
  'logical-device': ['logical device', 'logical devices'],
  'physical-device': ['physical device', 'physical devices'],
  'device-type': ['device type', 'device types'],
  store: ['store', 'stores'],
  item: ['item', 'items'],
  category: ['category', 'categories'],
  brand: ['brand', 'brands'],
  tag: ['tag', 'tags'],
  'attribute-type': ['attribute type', 'attribute types'],
  'price-type': ['price type', 'price types'],
  image: ['image', 'images'],
  import: ['import job', 'import jobs'],
};

/** "200 items, 10 stores, …": what a tenant holds of the sample, or what a removal removed. */
export function describeCounts(counts: Partial<Record<SampleKind, number>>): string {
  const parts = ORDER.filter((kind) => counts[kind]).map((kind) => {
    const n = counts[kind]!;
    return kind === 'analytics' ? NAMES[kind][0] : `${n} ${NAMES[kind][n === 1 ? 0 : 1]}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}
const ORDER: SampleKind[] = [
  'item',
  'category',
  'brand',
  'price-type',
  'attribute-type',
  'tag',
  'image',
  'store',
  'device-type',
  'physical-device',
  'logical-device',
  'analytics',
];

function tenantOption(value: string | undefined): string {
  if (!value) throw new UsageError('--tenant <name> is required.');
  return value;
}

const seed = cliCommand<SampleServices, typeof options>({
  name: 'sample',
  subcommand: 'seed',
  usage:
    '  sample seed --tenant <name> [--items <n>]\n' +
    `                               fill a tenant with the sample catalog (${SAMPLE_DEFAULT_ITEMS} items by default,\n` +
    `                               up to ${SAMPLE_MAX_ITEMS.toLocaleString('en')}), stores, devices and shopper activity; run again\n` +
    '                               to go on after a stop or to grow it (nothing is made twice)',
  options,
  async run({ options }, withServices) {
    const tenantName = tenantOption(options.tenant);
    const raw = options.items ?? String(SAMPLE_DEFAULT_ITEMS);
    const items = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
    if (!(items >= 1 && items <= SAMPLE_MAX_ITEMS))
      throw new UsageError(`--items takes a whole number from 1 to ${SAMPLE_MAX_ITEMS}.`);
    await withServices(async ({ seeder }, context) => {
      const tenant = await context.tenant(tenantName);
      const tty = process.stderr.isTTY;
      const started = Date.now();
      const counts = await seeder.seed(
        tenant.id,
        context.urls.tenantBaseUrl(tenant.name),
        items,
        (phase, done, total) => {
          if (!tty) return;
          const width = 30;
          const filled = total > 0 ? Math.round((done / total) * width) : 0;
          const rate =
            phase === 'items' ? `, ${Math.round(done / ((Date.now() - started) / 1000))}/s` : '';
          process.stderr.write(
            `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${PHASES[phase]}${rate}\x1b[K`,
          );
        },
      );
      if (tty) process.stderr.write('\n');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `Tenant "${tenant.name}" holds the sample: ${describeCounts(counts)} (${seconds} s).`,
      );
    });
  },
});

const remove = cliCommand<SampleServices, typeof options>({
  name: 'sample',
  subcommand: 'remove',
  usage:
    '  sample remove --tenant <name>  remove what `sample seed` made in a tenant, and nothing the\n' +
    '                               tenant made itself',
  options,
  async run({ options }, withServices) {
    const tenantName = tenantOption(options.tenant);
    await withServices(async ({ remover }, context) => {
      const tenant = await context.tenant(tenantName);
      const { removed, kept } = await remover.remove(tenant.id);
      console.log(`Removed from tenant "${tenant.name}": ${describeCounts(removed)}.`);
      if (Object.keys(kept).length > 0)
        console.log(`Kept, as the tenant's own data uses them: ${describeCounts(kept)}.`);
    });
  },
});

export const sampleCommands: readonly CliCommand<SampleServices>[] = [seed, remove];
