// The console's build step: `vite build` of the single-page app in console/ into console/dist/.
// The build tools (Vite, its React plugin) and what the build bundles (React, …) are dev
// dependencies: the package's `prepare` script (console-prepare.ts, on `npm install`/`npm ci`)
// builds ahead, and `npm start` rebuilds first when the output is missing or older than the
// sources. The check stats a few dozen files, so a start with an up-to-date build pays a
// millisecond or two. A production install (`npm ci --omit=dev`) has no Vite: the server serves
// the console/dist built elsewhere, or answers 503 ConsoleNotBuilt, and never loads Vite itself.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's console/ folder (sources) and the build output inside it. */
export const CONSOLE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../console');
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');

/** Files and folders whose change makes a new build necessary. */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'tsconfig.json'];

function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestModification(join(path, entry)));
  }
  return newest;
}

/** Why the console needs a build, or undefined when dist/ is newer than every source. */
export function consoleBuildNeeded(root = CONSOLE_ROOT): string | undefined {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'the console has not been built yet';
  const builtAt = statSync(built).mtimeMs;
  const sourcesAt = Math.max(...SOURCES.map((source) => newestModification(join(root, source))));
  return sourcesAt > builtAt ? 'the console sources changed since the last build' : undefined;
}

const NO_VITE =
  'Vite, which builds the console, is not installed here (`npm ci --omit=dev` leaves out the ' +
  'dev dependencies, the console’s build tools among them)';
const BUILD_ELSEWHERE =
  'run `npm run build` where the dev dependencies are installed and copy console/dist to this ' +
  'server (docs/console.md, "Building")';

/**
 * Vite's command-line script, or undefined where Vite is not installed (a production install,
 * `npm ci --omit=dev`, leaves out the dev dependencies). Only resolved, never imported: the build
 * runs in a child process.
 */
export function findViteBin(): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    return undefined;
  }
}

/** Runs `vite build` for the console in a child process (the server never loads Vite itself). */
export function buildConsole(
  root = CONSOLE_ROOT,
  viteBin = findViteBin(),
): { ok: boolean; output: string } {
  if (!viteBin) return { ok: false, output: NO_VITE };
  const result = spawnSync(
    process.execPath,
    [viteBin, 'build', '--config', join(root, 'vite.config.ts')],
    // A production build whatever NODE_ENV the caller has (Vitest sets `test`, which would make
    // Vite bundle React's development build: twice the size, effects run twice).
    { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
  };
}

/**
 * Builds the console when it is missing or stale; returns what happened, for the start log.
 * Without Vite (a production install) it builds nothing: a console/dist built ahead is served
 * as it is (with a note when the sources look newer), and without one it throws a message that
 * says how to build it (the caller serves the API anyway; /console/ answers 503 ConsoleNotBuilt).
 * `findVite` is there for tests: the machine's Vite or none.
 */
export function ensureConsoleBuilt(
  root = CONSOLE_ROOT,
  findVite: () => string | undefined = findViteBin,
): string | undefined {
  const reason = consoleBuildNeeded(root);
  if (!reason) return undefined;
  const viteBin = findVite();
  if (!viteBin) {
    if (existsSync(join(root, 'dist', 'index.html'))) {
      return `Serving the console built ahead in console/dist as it is, though ${reason}: ${NO_VITE}; to update it, ${BUILD_ELSEWHERE}.`;
    }
    throw new Error(
      `The console is not built (no console/dist/index.html) and ${NO_VITE}. The API is served; /console/ answers 503 ConsoleNotBuilt until a build is there: ${BUILD_ELSEWHERE}.`,
    );
  }
  const started = Date.now();
  const { ok, output } = buildConsole(root, viteBin);
  if (!ok) throw new Error(`Building the console failed (${reason}):\n${output}`);
  return `Built the console (${reason}) in ${Date.now() - started} ms`;
}
