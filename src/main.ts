// CLI entry: `serve` (npm start), `migrate` and `distribute` here, and the modules' commands:
// `tenant` (create, list, delete), `member` (create), `keys` (rotate), `endpoint` (status),
// `analytics` (detach, trending), `catalog` (import), `history` (export, verify) and `sample` (seed, remove), each declared in its module's
// `<name>-commands.ts` (src/cli/cli-command.ts). The usage text is assembled below from them;
// `--help` and a command line that does not fit are answered as src/cli/usage.ts describes.
import type { ParseArgsOptionsConfig } from 'node:util';
import {
  UsageError,
  withServicesOf,
  type CliCommand,
  type CommandContext,
  type WithServices,
} from './cli/cli-command.ts';
import {
  CommandLineError,
  parseCommandLine,
  reportCommandLineError,
  unknownCommand,
  UsageText,
  type UsageLines,
} from './cli/usage.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/connection/embedded-lock.ts';
import { openDatabase } from './db/connection/database.ts';
import { distributeExisting } from './db/citus/distribute-existing.ts';
import { awaitsDistribution } from './db/citus/distribution.ts';
import { publicUrls } from './http/public-urls.ts';
import { createServices, defineQueues, type Services } from './module-wiring.ts';
import { analyticsCommands } from './modules/analytics/analytics-module.ts';
import { catalogCommands } from './modules/catalog/catalog-module.ts';
import { ensureConsoleBuilt } from './modules/console/console-module.ts';
import { historyCommands } from './modules/history/history-module.ts';
import { integrationCommands } from './modules/integration/integration-module.ts';
import { membersCommands } from './modules/members/members-module.ts';
import { oauthCommands } from './modules/oauth/oauth-module.ts';
import { sampleCommands } from './modules/sample/sample-module.ts';
import { tenantsCommands } from './modules/tenants/tenants-module.ts';
import { migrateDatabase, prepareDatabase, SchemaNotCurrentError } from './migrate-database.ts';
import { serve } from './server.ts';

/** The modules' commands, each given its module's services, in the order the usage lists them. */
const COMMANDS: readonly CliCommand<Services>[] = [
  ...withServicesOf(tenantsCommands, (services: Services) => services.tenants),
  ...withServicesOf(membersCommands, (services: Services) => services.members),
  ...withServicesOf(oauthCommands, (services: Services) => services.oauth),
  ...withServicesOf(integrationCommands, (services: Services) => services.integration),
  ...withServicesOf(analyticsCommands, (services: Services) => services.analytics),
  ...withServicesOf(catalogCommands, (services: Services) => services.catalog),
  ...withServicesOf(historyCommands, (services: Services) => services.history),
  ...withServicesOf(sampleCommands, (services: Services) => services.sample),
];

/** The options of the process-level commands (serve, distribute). */
const OPTIONS: ParseArgsOptionsConfig = {
  'online-from': { type: 'string' },
  'no-sample': { type: 'boolean' },
};

/** The process-level commands' lines of the usage text; the modules' commands add theirs. */
const PROCESS_COMMANDS: UsageLines[] = [
  {
    name: 'serve',
    usage: [
      '  serve [--no-sample]          run the API server (what npm start does); a first start makes the',
      '                               demo tenant and fills it with the sample catalog, unless --no-sample',
      '                               or SAMPLE_CATALOG=false',
    ].join('\n'),
  },
  {
    name: 'migrate',
    usage: [
      '  migrate                      the release step: apply pending migrations and SQL code (a',
      '                               start on PostgreSQL runs none: exit code 3 until it ran)',
    ].join('\n'),
  },
  {
    name: 'distribute',
    usage: [
      '  distribute [--online-from <rows>]',
      '                               distribute a database that holds data on its Citus cluster: tables',
      '                               of 10,000 rows or more online, smaller ones with their writes held',
      '                               for the copy',
    ].join('\n'),
  },
];

const USAGE = new UsageText('npm run -s omni --', [...PROCESS_COMMANDS, ...COMMANDS]);

const AWAITS_DISTRIBUTION =
  'This database has the citus extension and holds data that is not distributed yet: ' +
  'run `npm run omni -- distribute` (docs/operations.md, "Citus").';

/** npm start builds the web console first when its build is missing or stale (docs/console.md). */
function buildConsoleIfStale(): void {
  try {
    const built = ensureConsoleBuilt();
    if (built) console.log(built);
  } catch (error) {
    // The API does not depend on the console: serve it anyway; /console/ answers 503 meanwhile.
    console.error(error instanceof Error ? error.message : String(error));
  }
}

/** A command's database: failures nobody waits for are printed, and a lost lock ends the command. */
function openCommandDatabase(config: Config) {
  return openDatabase({
    ...config,
    onBackgroundError: (error, what) => {
      console.error(
        what === 'lock'
          ? `The lock on DATA_DIR=${config.dataDir} was lost (${error.message}); stopping.`
          : what === 'monitor'
            ? `Warning: ${error.message}`
            : `An idle database connection failed: ${error.message}`,
      );
      if (what === 'lock') process.exit(1);
    },
  });
}

/**
 * The services of a command: the database opened and migrated (or its schema checked, where
 * `omni migrate` is the release step), closed when the command ends.
 */
function servicesFor(config: Config): WithServices<Services> {
  return async (work) => {
    const database = await openCommandDatabase(config);
    try {
      await prepareDatabase(
        database,
        { migrateOnStart: config.migrateOnStart, waitSeconds: 0 },
        () => {},
      );
      const services = createServices(config, database);
      const context: CommandContext = {
        config,
        urls: publicUrls(config),
        tenant: async (name) => {
          const tenant = await services.tenants.findByName(name);
          if (!tenant) throw new UsageError(`Tenant "${name}" does not exist.`);
          return tenant;
        },
      };
      return await work(services, context);
    } finally {
      await database.close();
    }
  };
}

async function run(argv: string[]): Promise<void> {
  // Every command's options at once: a command ignores those of the others.
  const options: ParseArgsOptionsConfig = { ...OPTIONS };
  for (const command of COMMANDS) Object.assign(options, command.options);
  const { positionals, values } = parseCommandLine(argv, options);
  const [command, subcommand, ...args] = positionals;
  // Help before the configuration is read: a bad setting does not hide the usage.
  if (command === undefined || command === 'help' || values.help) {
    const words = command === 'help' ? positionals.slice(1) : positionals;
    const usage = USAGE.of(words.slice(0, 2));
    if (usage === undefined) throw unknownCommand(USAGE, words);
    console.log(usage);
    return;
  }
  const found = COMMANDS.find((c) => c.name === command && c.subcommand === subcommand);
  if (!found && !PROCESS_COMMANDS.some((c) => c.name === command))
    throw unknownCommand(USAGE, positionals);
  if (found) {
    // The configuration is read when the command asks for its services, after it has checked
    // its arguments: a command line that does not fit is told so first.
    const withServices: WithServices<Services> = (work) => servicesFor(loadConfig())(work);
    await found.run({ args, options: values }, withServices).catch((error: unknown) => {
      // Without a message: the command's arguments do not fit it.
      if (error instanceof UsageError && !error.message)
        throw new CommandLineError(`Missing arguments for ${command} ${found.subcommand}.`, [
          command,
          found.subcommand,
        ]);
      throw error;
    });
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      buildConsoleIfStale();
      await serve(config, { sample: config.sampleCatalog && values['no-sample'] !== true });
      return;
    case 'migrate': {
      const database = await openCommandDatabase(config);
      try {
        const services = createServices(config, database);
        defineQueues(services);
        const versions = await migrateDatabase(database, services);
        console.log(
          versions.length ? `Applied: ${versions.join(', ')}` : 'Migrations are up to date.',
        );
        if (await awaitsDistribution(database)) console.log(AWAITS_DISTRIBUTION);
      } finally {
        await database.close();
      }
      return;
    }
    case 'distribute': {
      if (!config.databaseUrl)
        throw new UsageError('distribute needs DATABASE_URL: the coordinator of a Citus cluster.');
      const database = await openCommandDatabase(config);
      try {
        await migrateDatabase(database);
      } finally {
        await database.close();
      }
      const onlineFrom =
        values['online-from'] === undefined ? undefined : Number(values['online-from']);
      if (onlineFrom !== undefined && !(Number.isInteger(onlineFrom) && onlineFrom >= 0))
        throw new UsageError('--online-from takes a number of rows (a whole number, 0 or more).');
      const done = await distributeExisting(config.databaseUrl, (line) => console.log(line), {
        ...(onlineFrom === undefined ? {} : { onlineFrom }),
      });
      console.log(
        `Distributed: ${done.online.length + done.blocking.length} tables by tenant_id ` +
          `(${done.blocking.length} of them with their writes held), ${done.reference.length} reference tables.`,
      );
      return;
    }
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CommandLineError) process.exit(reportCommandLineError(error, USAGE));
  if (error instanceof UsageError) {
    console.error(error.message);
  } else if (error instanceof SchemaNotCurrentError) {
    console.error(error.message);
    process.exit(SchemaNotCurrentError.EXIT_CODE);
  } else if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
