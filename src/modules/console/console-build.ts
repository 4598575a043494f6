// The console's build step: `vite build` of the single-page app in console/ into console/dist/.
// `npm start` builds first when the output is missing or older than the sources; the check stats
// a few dozen files, so a start with an up-to-date build pays a millisecond or two.
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

/** Runs `vite build` for the console in a child process (the server never loads Vite itself). */
export function buildConsole(root = CONSOLE_ROOT): { ok: boolean; output: string } {
  const require = createRequire(import.meta.url);
  let viteBin: string;
  try {
    viteBin = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    return { ok: false, output: 'vite is not installed (npm ci installs it)' };
  }
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

/** Builds the console when it is missing or stale; returns what happened, for the start log. */
export function ensureConsoleBuilt(root = CONSOLE_ROOT): string | undefined {
  const reason = consoleBuildNeeded(root);
  if (!reason) return undefined;
  const started = Date.now();
  const { ok, output } = buildConsole(root);
  if (!ok) throw new Error(`Building the console failed (${reason}):\n${output}`);
  return `Built the console (${reason}) in ${Date.now() - started} ms`;
}
