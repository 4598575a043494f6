// `catalog import`: the catalog module's command of the CLI (src/cli/cli-command.ts): the import
// job run in the CLI's process, with a progress bar.
import { createReadStream } from 'node:fs';
import { cliCommand, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import type { CatalogServices } from './catalog-module.ts';
import type { ImportJob } from './imports/import-schemas.ts';

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

const options = {
  format: { type: 'string' },
  'skip-failed': { type: 'boolean', default: false },
  'create-missing': { type: 'boolean', default: false },
} as const;

const importItems = cliCommand<CatalogServices, typeof options>({
  name: 'catalog',
  subcommand: 'import',
  usage:
    '  catalog import <tenant> <file> [--format jsonl|csv] [--skip-failed] [--create-missing]\n' +
    '                               import items from a JSONL or CSV file, with a progress bar',
  options,
  async run({ args: [tenantName, file], options }, withServices) {
    if (!tenantName || !file) throw new UsageError();
    const format = options.format ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl');
    if (format !== 'jsonl' && format !== 'csv')
      throw new UsageError('--format must be jsonl or csv.');
    await withServices(async ({ imports }, context) => {
      const tenant = await context.tenant(tenantName);
      const job = await imports.create(
        tenant.id,
        context.urls.tenantBaseUrl(tenant.name),
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
      await imports.run(tenant.id, job.Id, (progress) => {
        last = progress;
        if (tty) process.stderr.write(`\r${progressLine(progress)}`);
      });
      if (tty) process.stderr.write('\n');
      console.log(`Import ${last.Id}: ${last.State}. ${progressLine(last)}`);
      if (last.Error) console.log(last.Error);
      if (last.RowsFailed > 0)
        for await (const text of imports.results(tenant.id, job.Id))
          for (const line of text.split('\n')) if (line.includes('"Failed"')) console.log(line);
      if (last.State !== 'Succeeded') process.exitCode = 1;
    });
  },
});

export const catalogCommands: readonly CliCommand<CatalogServices>[] = [importItems];
