// A production install (`npm ci --omit=dev`) has only package.json's `dependencies`: every
// package the server's source (src/) loads at run time must be one of them, and the web
// console's build tools and browser libraries (Vite, React, …, bundled into console/dist ahead)
// must not be (docs/console.md, "Building"). Read from the source itself with TypeScript's
// parser: static imports and re-exports, `import()`, `require()` and `require.resolve()`; type-only
// imports are erased by Node and load nothing. Vite may only be looked for, never needed: its
// loads must be dynamic and inside a `try` with a `catch` (src/modules/console/console-build.ts).
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  workspaces?: string[];
}

const readJson = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const pkg = readJson<PackageJson>('package.json');
const dependencies = Object.keys(pkg.dependencies ?? {});
const devDependencies = Object.keys(pkg.devDependencies ?? {});
/** The repository's own packages (npm workspaces, linked by every install). */
const workspaces = (pkg.workspaces ?? []).map(
  (folder) => readJson<PackageJson>(join(folder, 'package.json')).name,
);

/** Packages the server may look for at run time without needing them: build tools. */
const OPTIONAL_BUILD_TOOLS = new Set(['vite']);

interface Load {
  /** The package's name (`@scope/name` or `name`) of a bare specifier. */
  name: string;
  specifier: string;
  /** `src/…/file.ts:line`. */
  at: string;
  /** import(), require() or require.resolve(), not a static import or re-export. */
  dynamic: boolean;
  /** Inside the `try` block of a statement with a `catch`, or given a `.catch()`. */
  caught: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true })
    .map(String)
    .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
}

function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Inside the `try` block of a statement with a `catch`, or a promise given a `.catch()`. */
function caughtLoad(node: ts.Node): boolean {
  const { parent } = node;
  if (ts.isPropertyAccessExpression(parent) && parent.name.text === 'catch') return true;
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isTryStatement(parent) && parent.tryBlock === child && parent.catchClause) return true;
    if (ts.isFunctionLike(parent)) return false;
  }
  return false;
}

/** Every package a file loads at run time (type-only imports left out); throws on a load it cannot read. */
function loadsOf(file: string): Load[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const loads: Load[] = [];
  const add = (node: ts.Node, specifier: ts.Expression, dynamic: boolean) => {
    const at = `${relative(ROOT, join(ROOT, file))}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (!ts.isStringLiteralLike(specifier))
      throw new Error(`${at}: a load whose specifier is not a literal cannot be checked`);
    const name = packageName(specifier.text);
    if (name)
      loads.push({ name, specifier: specifier.text, at, dynamic, caught: caughtLoad(node) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      add(node, node.moduleSpecifier, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      add(node, node.moduleSpecifier, false);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      add(node, node.moduleReference.expression, false);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isLoad =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          callee.name.text === 'resolve' &&
          ((ts.isIdentifier(callee.expression) && callee.expression.text === 'require') ||
            (ts.isMetaProperty(callee.expression) && callee.expression.name.text === 'meta')));
      if (isLoad) {
        const [first] = node.arguments;
        if (!first) throw new Error(`${file}: a load without a specifier`);
        add(node, first, true);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return loads;
}

const serverLoads = sourceFiles('src').flatMap(loadsOf);
const consoleLoads = [...sourceFiles('console/src'), 'console/vite.config.ts'].flatMap(loadsOf);

describe('the server’s run-time packages (a production install: npm ci --omit=dev)', () => {
  it('reads the server’s loads (fastify and pg among them; Vite looked for by the console build)', () => {
    const names = new Set(serverLoads.map((load) => load.name));
    expect(names).toContain('fastify');
    expect(names).toContain('pg');
    expect(serverLoads.some((load) => load.name === 'vite')).toBe(true);
    expect(consoleLoads.map((load) => load.name)).toEqual(
      expect.arrayContaining(['react', 'react-dom', 'vite', '@vitejs/plugin-react']),
    );
  });

  it('finds every package src/ needs at run time in dependencies', () => {
    const missing = serverLoads
      .filter((load) => !OPTIONAL_BUILD_TOOLS.has(load.name))
      .filter((load) => !dependencies.includes(load.name) && !workspaces.includes(load.name))
      .map((load) => `${load.at} loads ${load.specifier}`);
    expect(missing, 'add them to dependencies (npm install --save)').toEqual([]);
  });

  it('only looks for the build tools: dynamically, a failure caught, and they are dev dependencies', () => {
    const needed = serverLoads
      .filter((load) => OPTIONAL_BUILD_TOOLS.has(load.name) && !(load.dynamic && load.caught))
      .map((load) => `${load.at} loads ${load.specifier} statically or without a catch`);
    expect(needed).toEqual([]);
    for (const tool of OPTIONAL_BUILD_TOOLS) {
      expect(dependencies).not.toContain(tool);
      expect(devDependencies).toContain(tool);
    }
  });

  it('keeps the console’s build tools and browser libraries out of dependencies', () => {
    const serverNames = new Set(
      serverLoads.filter((load) => !OPTIONAL_BUILD_TOOLS.has(load.name)).map((load) => load.name),
    );
    const consoleOnly = [...new Set(consoleLoads.map((load) => load.name))].filter(
      (name) => !serverNames.has(name) && !workspaces.includes(name),
    );
    expect(consoleOnly.length).toBeGreaterThan(5);
    expect(consoleOnly.filter((name) => dependencies.includes(name))).toEqual([]);
    // …and the build finds them where the dev dependencies are installed.
    expect(consoleOnly.filter((name) => !devDependencies.includes(name))).toEqual([]);
  });

  it('has package-lock.json agree: the console-only packages dev-only, the server’s not', () => {
    const lock = readJson<{ packages: Record<string, { dev?: boolean }> }>('package-lock.json');
    const entry = (name: string) => lock.packages[`node_modules/${name}`];
    const serverNames = new Set(
      serverLoads.filter((load) => !OPTIONAL_BUILD_TOOLS.has(load.name)).map((load) => load.name),
    );
    const consoleOnly = [...new Set(consoleLoads.map((load) => load.name))].filter(
      (name) => !serverNames.has(name) && !workspaces.includes(name),
    );
    expect(consoleOnly.filter((name) => entry(name)?.dev !== true)).toEqual([]);
    expect(
      [...serverNames].filter(
        (name) => !workspaces.includes(name) && (!entry(name) || entry(name)?.dev),
      ),
    ).toEqual([]);
  });
});
