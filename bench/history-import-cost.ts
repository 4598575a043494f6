// The change history's cost on a catalog import: BENCH_IMPORT_ROWS records (default 100,000;
// 1,000,000 for the figure docs/design.md gives) imported by the import job into a new tenant
// with the history's recording on, and into another with it off (history-switch.ts), alternated
// over BENCH_ROUNDS rounds (default 1: on then off; the next round off then on). With the history
// on, the instance's sealer runs beside the import as a server's does (HISTORY_SEAL_INTERVAL_MS),
// and the time until every entry is sealed is reported too.
//   BENCH_DATABASE_URL=postgres://… node bench/history-import-cost.ts
// Prints each run and the ratio of the mean rates (on ÷ off; target ≥ 0.9), and writes them to
// bench/results/history-import.json.
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';
import { createServices } from '../src/module-wiring.ts';
import { historySwitch } from './history-switch.ts';
import { importJob, reportImport } from './import-records.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url)
  throw new Error('usage: BENCH_DATABASE_URL=postgres://… node bench/history-import-cost.ts');
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);

const config = loadConfig({ ...process.env, DATABASE_URL: url });
const database = await openDatabase(config);
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;

try {
  await migrateDatabase(database);
  const services = createServices(config, database);
  const setHistory = await historySwitch((text) => database.query(text));
  const sealer = services.history.sealer;
  const unsealed = async (tenantId: number) =>
    Number(
      (
        await database.query<{ n: string }>(
          'select count(*) as n from change_history where tenant_id = $1 and seq is null',
          [tenantId],
        )
      )[0]!.n,
    );

  const runs: { history: boolean; rowsPerSecond: number; sealedAfterSeconds?: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const on of round % 2 === 0 ? [true, false] : [false, true]) {
      const name = `bench-history-import-${randomUUID().slice(0, 8)}`;
      const { tenant } = await services.tenants.create(name);
      const runImport = await importJob(services, tenant.id, ROWS);
      await setHistory(on);
      if (on) sealer.start();
      const started = process.hrtime.bigint();
      try {
        await runImport();
      } finally {
        await setHistory(true);
      }
      const importSeconds = seconds(started);
      let sealedAfterSeconds: number | undefined;
      if (on) {
        while ((await unsealed(tenant.id)) > 0) await sealer.sealAll();
        sealedAfterSeconds = Math.round(seconds(started) * 10) / 10;
        await sealer.stop();
      }
      const run = {
        history: on,
        rowsPerSecond: Math.round(ROWS / importSeconds),
        ...(on ? { sealedAfterSeconds } : {}),
      };
      console.log(
        JSON.stringify({
          round,
          rows: ROWS,
          importSeconds: Math.round(importSeconds * 10) / 10,
          ...run,
        }),
      );
      runs.push(run);
      await services.tenants.delete(name);
    }
  }
  const mean = (on: boolean) => {
    const rates = runs.filter((r) => r.history === on).map((r) => r.rowsPerSecond);
    return rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
  };
  const summary = JSON.stringify({
    rows: ROWS,
    rounds: ROUNDS,
    withHistoryRowsPerSecond: Math.round(mean(true)),
    withoutHistoryRowsPerSecond: Math.round(mean(false)),
    ratio: Math.round((mean(true) / mean(false)) * 1000) / 1000,
    runs,
  });
  await reportImport('history-import.json', summary);
} finally {
  await database.close();
}
