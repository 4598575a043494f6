// Which test files each test command runs (README, "Tests"). `npm test` is the suite a developer
// runs after every change: every module's behaviour, in-process, on the embedded database (or on
// TEST_DATABASE_URL). What is slow by nature runs in named suites of its own, and CI runs them
// all: `npm run test:slow` (every named suite at once) or one of them (`npm run test:browser` …).
// A file named on the command line runs whatever suite it is in.

export const NAMED_SUITES = {
  /** The console and the developer portal in a real browser, and Lighthouse. */
  browser: [
    'test/modules/console/console-{bulk,catalog-lists,dashboard,e2e,history,items,layout,members,sample,stores,lighthouse}.test.ts',
    'test/modules/integration/portal-browser.test.ts',
  ],
  /** The OpenAPI fuzz: every operation with generated requests, row counts checked around each. */
  fuzz: ['test/reliability/openapi-fuzz.test.ts'],
  /** Kills and switchovers of a pg_auto_failover pair under load. */
  failover: ['test/reliability/failover.test.ts'],
  /**
   * The real server and CLI as child processes: first start, shutdown, several instances,
   * crashes and restarts, the commands, and clients of other languages reading a 413.
   */
  processes: [
    'test/cli/*.test.ts',
    'test/server/*.test.ts',
    'test/reliability/{crash-safety,several-instances,import-resume}.test.ts',
    'test/http/{idempotency-instances,too-large-answers}.test.ts',
    'test/modules/events/webhook-crash.test.ts',
    'test/modules/integration/provisioning-processes.test.ts',
    'test/jobs/poison-jobs.test.ts',
    'test/db/embedded-lock.test.ts',
  ],
  /**
   * Bench-like cases: large bodies and files under memory bounds (a 20 MiB upload streamed, a
   * large import), and every expression fed its worst 1 MiB under a time bound.
   */
  large: [
    'test/modules/storage/streaming.test.ts',
    'test/modules/catalog/imports/imports-large.test.ts',
    'test/http/linear-expressions.test.ts',
  ],
  /**
   * A tenant's shards moved between Citus workers under two servers' writes (its webhooks
   * delivered once and in order meanwhile), and one worker made unreachable (Citus only).
   */
  citus: ['test/reliability/citus-{tenant-move,fault-isolation,webhook-move}.test.ts'],
  /** The generated TypeScript client, Postman (newman) and Prism against a running server. */
  clients: ['test/clients/*.test.ts'],
} as const;

/**
 * Files whose servers and commands are child processes on the embedded database whatever the
 * run's engine (test/support/processes.ts): on PostgreSQL or Citus they would repeat the embedded
 * run exactly, so they run where the run's engine is the embedded one.
 */
export const EMBEDDED_ONLY = [
  'test/cli/*.test.ts',
  'test/server/{graceful-shutdown,runtime-dependencies}.test.ts',
  'test/http/too-large-answers.test.ts',
  'test/modules/events/webhook-crash.test.ts',
  'test/db/embedded-lock.test.ts',
];

export type SuiteName = keyof typeof NAMED_SUITES | 'dev' | 'slow' | 'all';

const ALL = ['test/**/*.test.ts'];
const SUITE_NAMES = ['dev', 'slow', 'all', ...Object.keys(NAMED_SUITES)];

/**
 * The include and exclude globs of the suites of a run (their union), on the embedded database
 * or not. `dev` is every file but the named suites', so it is joined by excluding those of the
 * named suites that the run does not name.
 */
export function suiteFiles(
  suites: readonly SuiteName[],
  embedded: boolean,
): { include: string[]; exclude: string[] } {
  const include = new Set<string>();
  const exclude = new Set<string>(embedded ? [] : EMBEDDED_ONLY);
  const named = new Set(
    suites.flatMap((suite) => (suite === 'slow' ? Object.keys(NAMED_SUITES) : [suite])),
  );
  if (named.has('all')) {
    include.add(ALL[0]!);
  } else if (named.has('dev')) {
    include.add(ALL[0]!);
    for (const [name, globs] of Object.entries(NAMED_SUITES))
      if (!named.has(name)) for (const glob of globs) exclude.add(glob);
  } else {
    for (const suite of named)
      for (const glob of NAMED_SUITES[suite as keyof typeof NAMED_SUITES]) include.add(glob);
  }
  return { include: [...include], exclude: [...exclude] };
}

/**
 * The suites of this run: TEST_SUITE (one name or several, comma-separated), or every file when
 * the command line names some.
 */
export function suitesOfRun(env: NodeJS.ProcessEnv, argv: readonly string[]): SuiteName[] {
  if (argv.some((arg) => /(^|\/)test\/|\.test\.ts$/.test(arg))) return ['all'];
  const named = (env.TEST_SUITE ?? 'dev').split(',').map((name) => name.trim());
  for (const name of named)
    if (!SUITE_NAMES.includes(name))
      throw new Error(
        `TEST_SUITE=${env.TEST_SUITE} names ${name || 'nothing'}, not a suite: ${SUITE_NAMES.join(', ')} (or several, comma-separated)`,
      );
  return named as SuiteName[];
}
