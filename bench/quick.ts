// npm run bench:quick: the hot path (health, app fetch, item fetch) against the figures kept in
// bench/hot-path.json, in about two minutes. Every change is checked with it before it lands:
// a scenario whose ratio to the ideal drops by more than the allowed margin below its kept figure
// is a regression, and the command exits 1.
//
// It runs `npm run bench` on PostgreSQL with a small catalog (BENCH_DATABASE_URL, or the local
// server's `omni_bench` database, made when missing). BENCH_QUICK_RECORD=1 writes the run's
// figures into bench/hot-path.json (after a change that makes the hot path faster, to keep it so).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIGURES_FILE = path.join(ROOT, 'bench/hot-path.json');

interface KeptFigures {
  about: string;
  engine: string;
  /** How far below its kept figure a scenario's ratio may fall before it is a regression. */
  allowedDrop: number;
  measuredAt: string;
  /** Scenario name → median ratio to the ideal baseline. */
  figures: Record<string, number>;
  /** Scenario name → the ratio the project promises. */
  targets: Record<string, number>;
}

interface Result {
  scenario: string;
  vsIdeal: number;
  non2xx: number;
}

const kept = JSON.parse(await readFile(FIGURES_FILE, 'utf8')) as KeptFigures;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? (await localBenchDatabase());
const scenarios = Object.keys(kept.figures);
const only = scenarios
  .filter((name) => !name.includes('(baseline)'))
  .map((name) => name.split(' (')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');

await new Promise<void>((resolve, reject) => {
  const child = spawn(process.execPath, ['bench/run.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_ONLY: only,
      BENCH_ITEMS: process.env.BENCH_ITEMS ?? '2000',
      BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? '3',
      BENCH_DURATION: process.env.BENCH_DURATION ?? '6',
    },
  });
  child.on('exit', (code) =>
    code === 0 ? resolve() : reject(new Error(`bench/run.ts exited ${code}`)),
  );
});

const latest = JSON.parse(await readFile(path.join(ROOT, 'bench/results/latest.json'), 'utf8')) as {
  results: Result[];
};
let regressions = 0;
console.log(`\nhot path against bench/hot-path.json (measured ${kept.measuredAt}):\n`);
console.log(['scenario'.padEnd(52), 'kept', '  now', 'change', 'target', 'verdict'].join('  '));
const now: Record<string, number> = {};
for (const name of scenarios) {
  const result = latest.results.find((r) => r.scenario === name);
  if (!result) throw new Error(`the bench measured no "${name}"`);
  now[name] = result.vsIdeal;
  const change = result.vsIdeal - kept.figures[name]!;
  const target = kept.targets[name];
  const regressed = change < -kept.allowedDrop || result.non2xx > 0;
  if (regressed) regressions++;
  const verdict = regressed
    ? result.non2xx > 0
      ? `REGRESSION (${result.non2xx} non-2xx)`
      : 'REGRESSION'
    : target !== undefined && result.vsIdeal < target
      ? 'below target'
      : 'ok';
  console.log(
    [
      name.padEnd(52),
      kept.figures[name]!.toFixed(2),
      result.vsIdeal.toFixed(2).padStart(5),
      `${change >= 0 ? '+' : ''}${change.toFixed(2)}`.padStart(6),
      (target === undefined ? '' : `≥ ${target}`).padStart(6),
      verdict,
    ].join('  '),
  );
}

if (process.env.BENCH_QUICK_RECORD === '1') {
  const recorded = { ...kept, measuredAt: new Date().toISOString().slice(0, 10), figures: now };
  await writeFile(FIGURES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
  console.log('\nfigures recorded in bench/hot-path.json');
}
if (regressions > 0) {
  console.log(
    `\n${regressions} regression(s): more than ${kept.allowedDrop} × ideal below the kept figure`,
  );
  process.exit(1);
}

/** postgres://…/omni_bench on the local server, made when missing. */
async function localBenchDatabase(): Promise<string> {
  const server = 'postgres://postgres@127.0.0.1:5432';
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query(`select 1 from pg_database where datname = 'omni_bench'`);
    if (exists.rowCount === 0) await admin.query('create database omni_bench');
  } finally {
    await admin.end();
  }
  return `${server}/omni_bench`;
}
