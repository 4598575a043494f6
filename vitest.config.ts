import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { suiteFiles, suitesOfRun } from './test/support/test-suites.ts';

const files = suiteFiles(
  suitesOfRun(process.env, process.argv.slice(2)),
  // A file named on the command line runs on any engine.
  !process.env.TEST_DATABASE_URL || process.argv.slice(2).some((arg) => arg.includes('test/')),
);

export default defineConfig({
  test: {
    // npm test runs the developer's suite; the named suites run what is slow by nature (test/support/test-suites.ts).
    include: files.include,
    exclude: [...files.exclude, '**/node_modules/**'],
    globalSetup: [
      'test/support/global-setup.ts',
      'test/support/console-build-setup.ts',
      'test/support/browser-setup.ts',
      'test/support/openapi-coverage-setup.ts',
    ],
    pool: 'forks',
    // Two files at a time even on two cores (Vitest's default, one fewer than the cores, is one
    // there), as files wait on child processes, sockets and the database much of the time; and
    // the app's modules loaded once per worker, not once per file (every file builds its own app
    // and database; the only module-level values in src are constant caches: the bundled
    // migrations and the timing-equaliser password hash). On a two-core machine the PGlite run
    // took 1,032 s as Vitest's defaults had it, 800 s with two workers and 471 s with two
    // workers sharing their modules (README, "Run it").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    isolate: false,
    testTimeout: 30_000,
    // expect.poll waits for a condition; its own default (1 s) is a timing assumption that a
    // loaded machine breaks. A poll only bounds a failure, so it may wait long.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
