// `omni --help` and the command lines that do not fit (issue 52): help on stdout with exit 0, for
// every command or for one; an unknown command, an unknown option or missing arguments on stderr
// with the usage and exit 2; never a stack trace. None of these opens a database or reads the
// configuration, so they run with a DATA_DIR that does not exist and a PORT that is not valid.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, stopChildren, type CliResult } from '../support/processes.ts';

afterEach(stopChildren);
afterAll(async () => {
  await stopChildren();
  await removeTempDirs();
});

const TIMEOUT = 90_000;
const ENV = { DATA_DIR: '/nonexistent/omni', PORT: 'not-a-port' };
const omni = (...args: string[]) => runCli(args, ENV);

/** A line of a stack trace (`    at run (file:///…/main.ts:117:35)`). */
const STACK_LINE = /^\s+at /m;

/** The first word of each command line of the usage text. */
const EVERY_COMMAND = [
  '  serve',
  '  migrate',
  '  distribute [--online-from <rows>]',
  '  tenant create <name> [--json]',
  '  tenant list',
  '  tenant delete <name>',
  '  member create <tenant> <username>',
  '  keys rotate',
  '  endpoint status <tenant>',
  '  analytics detach --before YYYY-MM',
  '  analytics trending --date YYYY-MM-DD',
  '  catalog import <tenant> <file> [--format jsonl|csv]',
  '  -h, --help',
];

function expectHelp(result: CliResult): void {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(/^Usage: npm run -s omni -- <command>/);
}

function expectWrongUsage(result: CliResult, message: string | undefined): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  if (message !== undefined) expect(result.stderr.split('\n')[0]).toBe(message);
  expect(result.stderr).toContain('Usage: npm run -s omni -- <command>');
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('omni --help', () => {
  it(
    'prints every command with its options on stdout and exits 0: --help, -h, help, or nothing',
    async () => {
      const results = await Promise.all([omni('--help'), omni('-h'), omni('help'), omni()]);
      for (const result of results) {
        expectHelp(result);
        for (const command of EVERY_COMMAND) expect(result.stdout).toContain(command);
        expect(result.stdout).toBe(results[0]?.stdout);
      }
    },
    TIMEOUT,
  );

  it(
    "prints one command's usage after it: a word names its subcommands, two words one",
    async () => {
      const [tenant, create, serve, helpTenant] = await Promise.all([
        omni('tenant', '--help'),
        omni('tenant', 'create', '-h'),
        omni('serve', '--help'),
        omni('help', 'tenant'),
      ]);
      for (const result of [tenant, create, serve, helpTenant]) expectHelp(result);
      expect(tenant.stdout).toContain('  tenant create <name> [--json]');
      expect(tenant.stdout).toContain('  tenant delete <name>');
      expect(tenant.stdout).not.toContain('  serve');
      expect(helpTenant.stdout).toBe(tenant.stdout);
      expect(create.stdout).toContain('  tenant create <name> [--json]');
      expect(create.stdout).not.toContain('tenant list');
      // serve --help prints, and does not serve.
      expect(serve.stdout).toContain('  serve [--no-sample]');
      expect(serve.stdout).not.toContain('  migrate');
    },
    TIMEOUT,
  );
});

describe('a command line that does not fit', () => {
  it(
    'an unknown command: named, with the usage on stderr, exit 2',
    async () => {
      const [bogus, subcommand, bare, helpBogus] = await Promise.all([
        omni('bogus'),
        omni('tenant', 'bogus'),
        omni('tenant'),
        omni('help', 'bogus'),
      ]);
      expectWrongUsage(bogus, 'Unknown command: bogus.');
      for (const command of EVERY_COMMAND) expect(bogus.stderr).toContain(command);
      expectWrongUsage(subcommand, 'Unknown command: tenant bogus.');
      expect(subcommand.stderr).toContain('  tenant list');
      expect(subcommand.stderr).not.toContain('  serve');
      expectWrongUsage(bare, 'Which tenant command? Name one.');
      expectWrongUsage(helpBogus, 'Unknown command: bogus.');
    },
    TIMEOUT,
  );

  it(
    "an unknown option, an option without its value, missing arguments: the command's usage, exit 2",
    async () => {
      const [option, topLevel, value, missing] = await Promise.all([
        omni('tenant', 'list', '--bogus'),
        omni('--bogus'),
        omni('distribute', '--online-from'),
        omni('tenant', 'create'),
      ]);
      expectWrongUsage(option, undefined);
      expect(option.stderr).toContain("Unknown option '--bogus'");
      expect(option.stderr).toContain('  tenant list [--json]');
      expect(option.stderr).not.toContain('  tenant delete');
      expectWrongUsage(topLevel, undefined);
      expect(topLevel.stderr).toContain("Unknown option '--bogus'");
      expectWrongUsage(value, undefined);
      expect(value.stderr).toContain("'--online-from <value>' argument missing");
      expect(value.stderr).toContain('  distribute [--online-from <rows>]');
      expectWrongUsage(missing, 'Missing arguments for tenant create.');
      expect(missing.stderr).toContain('  tenant create <name> [--json]');
    },
    TIMEOUT,
  );
});
