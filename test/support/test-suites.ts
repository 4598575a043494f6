// Which test files each test command runs (README, "Tests"). `npm test` is the suite a developer
// runs after every change: every module's behaviour, in-process, on the embedded database (or on
// TEST_DATABASE_URL). What is slow by nature runs in named suites of its own, and CI runs them
// all: `npm run test:slow` (every named suite at once) or one of them (`npm run test:browser` …).
// A file named on the command line runs whatever suite it is in.

export const NAMED_SUITES = {
  /** The console and the developer portal in a real browser, and Lighthouse. */
  browser: [
    'test/modules/console/console-{bulk,catalog-lists,dashboard,e2e,items,layout,members,sample,stores,lighthouse}.test.ts',
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
    'test/reliability/{crash-safety,several-instances,import-resume,citus-tenant-move}.test.ts',
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
  /** The generated TypeScript client, Postman (newman) and Prism against a running server. */
  clients: ['test/clients/*.test.ts'],
} as const;

export type SuiteName = keyof typeof NAMED_SUITES | 'dev' | 'slow' | 'all';

const ALL = ['test/**/*.test.ts'];
const slowFiles = () => Object.values(NAMED_SUITES).flat();

/** The include and exclude globs of a suite. */
export function suiteFiles(suite: SuiteName): { include: string[]; exclude: string[] } {
  if (suite === 'all') return { include: ALL, exclude: [] };
  if (suite === 'dev') return { include: ALL, exclude: slowFiles() };
  if (suite === 'slow') return { include: slowFiles(), exclude: [] };
  return { include: [...NAMED_SUITES[suite]], exclude: [] };
}

/** The suite of this run: TEST_SUITE, or every file when the command line names some. */
export function suiteOfRun(env: NodeJS.ProcessEnv, argv: readonly string[]): SuiteName {
  if (argv.some((arg) => /(^|\/)test\/|\.test\.ts$/.test(arg))) return 'all';
  const named = env.TEST_SUITE ?? 'dev';
  if (named === 'dev' || named === 'slow' || named === 'all' || named in NAMED_SUITES)
    return named as SuiteName;
  throw new Error(
    `TEST_SUITE=${named} is not a suite: dev, slow, all or ${Object.keys(NAMED_SUITES).join(', ')}`,
  );
}
