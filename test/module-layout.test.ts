// The layout every module keeps (docs/design.md, "Adding a module"), checked on the files
// themselves, so that a newcomer finds a thing from the folder names alone and a new module is
// made by copying the shape of an existing one. The direction of imports is ESLint's job
// (eslint.config.js); this test checks what a lint rule cannot see: which files a module has,
// where its routes, schemas, errors, migrations and tests live.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const MODULES = path.join(ROOT, 'src/modules');
const TEST_MODULES = path.join(ROOT, 'test/modules');

const modules = readdirSync(MODULES).filter((name) =>
  statSync(path.join(MODULES, name)).isDirectory(),
);

/** Every file below a folder, as paths relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(dir, file)).isFile())
    .map((file) => file.split(path.sep).join('/'));
}

/** Every folder below a folder (itself excluded), as paths relative to it. */
function foldersBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(path.join(dir, entry)).isDirectory())
    .map((entry) => entry.split(path.sep).join('/'));
}

const pascal = (name: string) =>
  name.replace(/(^|-)(\w)/g, (_m, _dash, c: string) => c.toUpperCase());

describe('src/modules/<name>/', () => {
  // The architecture's eleven, `history` (the change history's list, export and chain) and
  // `sample` (the sample catalog a first start seeds: it owns its records table and commands, and
  // writes only through the others' services).
  it('holds the modules the architecture names, history and the sample, and no other', () => {
    expect(modules.sort()).toEqual(
      [
        'analytics',
        'catalog',
        'company',
        'console',
        'events',
        'history',
        'integration',
        'members',
        'notifications',
        'oauth',
        'sample',
        'storage',
        'tenants',
      ].sort(),
    );
  });

  it.each(modules)('%s has <name>-module.ts exporting create<Name>Module', (name) => {
    const file = path.join(MODULES, name, `${name}-module.ts`);
    expect(existsSync(file), `${name}-module.ts`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(
      // Case aside: the OAuth module is createOAuthModule.
      new RegExp(`export function create${pascal(name)}Module\\(`, 'i'),
    );
  });

  it.each(modules)('%s names its files in kebab case, none a grab bag', (name) => {
    for (const file of filesBelow(path.join(MODULES, name))) {
      if (file.endsWith('.sql')) continue;
      expect(file, file).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*\/)*[a-z0-9]+(-[a-z0-9]+)*\.ts$/);
      expect(file, `${file}: say what it holds`).not.toMatch(/(^|[-/])(utils?|helpers?|misc)\b/);
    }
  });

  it.each(modules)('%s keeps its error codes in <name>-errors.ts, if it has any', (name) => {
    const files = filesBelow(path.join(MODULES, name));
    const errorFiles = files.filter((file) => file.endsWith('-errors.ts'));
    expect(
      errorFiles.every((file) => file === `${name}-errors.ts`),
      errorFiles.join(', '),
    ).toBe(true);
  });

  it.each(modules)('%s declares routes only in *-routes.ts files', (name) => {
    for (const file of filesBelow(path.join(MODULES, name))) {
      if (!file.endsWith('.ts') || file.endsWith('-routes.ts')) continue;
      const text = readFileSync(path.join(MODULES, name, file), 'utf8');
      expect(text, file).not.toMatch(
        /\b(app|instance)\.(get|post|put|patch|delete|head|route)\(|registerCrudRoutes\(/,
      );
    }
  });

  it.each(modules)(
    '%s declares request and response schemas only in routes and schemas',
    (name) => {
      for (const file of filesBelow(path.join(MODULES, name))) {
        if (!file.endsWith('.ts') || /-(routes|schemas)\.ts$/.test(file)) continue;
        const text = readFileSync(path.join(MODULES, name, file), 'utf8');
        expect(text, file).not.toMatch(/from 'typebox'/);
      }
    },
  );

  it.each(modules)(
    '%s keeps its tables in its own migrations/ folder, its functions and triggers in sql/',
    (name) => {
      const dir = path.join(MODULES, name);
      for (const file of filesBelow(dir).filter((f) => f.endsWith('.sql')))
        expect(file, file).toMatch(/^(migrations\/\d{4}_[a-z0-9_]+|sql\/[a-z0-9-]+)\.sql$/);
    },
  );
});

describe('migrations', () => {
  it('live in src/db/migrations (shared) or a module folder, each version number once', () => {
    // src/db/schema.sql is the snapshot of the schema they make (npm run db:schema), not one;
    // the SQL code files (functions and triggers) sit in sql/ folders beside them.
    const everywhere = filesBelow(path.join(ROOT, 'src')).filter(
      (f) => f.endsWith('.sql') && f !== 'db/schema.sql' && !/(^|\/)sql\//.test(f),
    );
    const versions = new Map<string, string>();
    for (const file of everywhere) {
      expect(file, file).toMatch(/^(db|modules\/[a-z-]+)\/migrations\/\d{4}_[a-z0-9_]+\.sql$/);
      const version = path.basename(file).slice(0, 4);
      expect(versions.get(version), `${file} and ${versions.get(version)}`).toBeUndefined();
      versions.set(version, file);
    }
  });
});

describe('test/', () => {
  it('has a folder per module, and none for a module that does not exist', () => {
    expect(readdirSync(TEST_MODULES).sort()).toEqual([...modules].sort());
  });

  it('mirrors src/: every folder under test/modules/<name> is one of src/modules/<name>', () => {
    for (const folder of foldersBelow(TEST_MODULES))
      expect(existsSync(path.join(MODULES, folder)), `test/modules/${folder}`).toBe(true);
  });

  it('names every file that is not a test <area>-fixtures.ts; shared ones are in test/support', () => {
    for (const file of filesBelow(path.join(ROOT, 'test'))) {
      if (file.endsWith('.test.ts') || file.startsWith('support/') || !file.endsWith('.ts'))
        continue;
      // Data or programs a test uses (frozen migrations, a worker it runs as a child process).
      if (/(^|\/)fixtures\//.test(file)) continue;
      expect(file, file).toMatch(/-fixtures\.ts$/);
    }
  });
});
