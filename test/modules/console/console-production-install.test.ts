// A production install (`npm ci --omit=dev`) has no Vite (a dev dependency, docs/console.md,
// "Building"): `npm start` then serves a console/dist built ahead as it is, or says how to build
// one (the API is served, /console/ answers 503 ConsoleNotBuilt), and never fails for it; the
// package's `prepare` script skips the build without failing and without running Node.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../../src/modules/console/console-build.ts';

const noVite = () => undefined;

describe('ensureConsoleBuilt without Vite (npm ci --omit=dev)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'console-no-vite-'));
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'main.tsx'), 'export {};');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('without a build: throws what to do (npm run build where the dev dependencies are)', () => {
    expect(() => ensureConsoleBuilt(root, noVite)).toThrow(
      /not built .*Vite, which builds the console, is not installed.*503 ConsoleNotBuilt.*run `npm run build` where the dev dependencies are installed and copy console\/dist/,
    );
  });

  it('with a build made ahead: nothing to say when it is fresh, a note when the sources look newer', async () => {
    await mkdir(join(root, 'dist'));
    await writeFile(join(root, 'dist', 'index.html'), '<!doctype html>');
    const past = new Date(Date.now() - 60_000);
    const built = new Date(Date.now() - 30_000);
    await utimes(join(root, 'src', 'main.tsx'), past, past);
    await utimes(join(root, 'src'), past, past);
    await utimes(join(root, 'dist', 'index.html'), built, built);
    expect(ensureConsoleBuilt(root, noVite)).toBeUndefined();

    await writeFile(join(root, 'src', 'page.tsx'), 'export {};');
    expect(ensureConsoleBuilt(root, noVite)).toMatch(
      /^Serving the console built ahead in console\/dist as it is, though the console sources changed.*`npm run build` where the dev dependencies are installed/,
    );
    // The build made ahead is left as it was.
    expect(await readFile(join(root, 'dist', 'index.html'), 'utf8')).toBe('<!doctype html>');
  });
});

describe('the prepare script (npm install, npm ci)', () => {
  it('succeeds without building where Vite is not installed', async () => {
    const pkg = JSON.parse(
      await readFile(join(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    const prepare = pkg.scripts.prepare;
    expect(prepare).toContain('src/modules/console/console-prepare.ts');
    // A folder without node_modules/vite, and no `node` on the PATH: the guard never runs it.
    const empty = await mkdtemp(join(tmpdir(), 'console-prepare-'));
    try {
      const { stdout } = await promisify(execFile)('/bin/sh', ['-c', prepare ?? ''], {
        cwd: empty,
        env: { PATH: '/nonexistent' },
      });
      expect(stdout).toMatch(
        /^prepare: no Vite \(npm ci --omit=dev\), the console is not built here/,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
