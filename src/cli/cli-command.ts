// The shape of a command of the CLI (src/main.ts), as src/module.ts is the shape of a module: each
// module that has commands declares them in its `<name>-commands.ts` and exports them from its
// `<name>-module.ts`; main.ts parses the command line, assembles the usage text from every
// command's lines and runs the one named, giving it its module's services.
import type { ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { PublicUrls } from '../http/public-urls.ts';

/**
 * A command that cannot do what it was asked (a tenant that does not exist): the process prints
 * the message alone and exits 1. Without a message, the command line does not fit the command:
 * the process prints the command's usage on stderr and exits 2 (src/cli/usage.ts).
 */
export class UsageError extends Error {}

/** The values of the options a command declares, as node:util's parseArgs gives them. */
export type OptionValues<Options extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: Options; allowPositionals: true }>
>['values'];

/** The options of a command that takes none. */
export type NoOptions = Record<string, never>;

/** What every command may use besides its module's services. */
export interface CommandContext {
  config: Config;
  urls: PublicUrls;
  /** The tenant of that name; a UsageError (`Tenant "x" does not exist.`) when there is none. */
  tenant(name: string): Promise<Tenant>;
}

/**
 * Opens the database, applies pending migrations, creates the services and runs `work` with the
 * command's module's services; closes the database when `work` ends.
 */
export type WithServices<Services> = <T>(
  work: (services: Services, context: CommandContext) => Promise<T>,
) => Promise<T>;

export interface CliCommand<
  Services,
  Options extends ParseArgsOptionsConfig = ParseArgsOptionsConfig,
> {
  /** The first word: `tenant` in `tenant create acme`. */
  name: string;
  /** The second: `create` in `tenant create acme`. */
  subcommand: string;
  /** Its lines of the usage text, as printed (each indented by two spaces). */
  usage: string;
  /** The options it reads; the command line is parsed with every command's options at once. */
  options: Options;
  /**
   * Runs the command: `args` are the words after the subcommand. It checks them before it asks
   * for the services (a wrong command line does not open the database).
   */
  run(
    input: { args: string[]; options: OptionValues<Options> },
    withServices: WithServices<Services>,
  ): Promise<void>;
}

/** A command with its options' types checked where it is written. */
export function cliCommand<Services, const Options extends ParseArgsOptionsConfig>(
  command: CliCommand<Services, Options>,
): CliCommand<Services> {
  return command;
}

/** Gives a module's commands the services of everything, of which they use their module's. */
export function withServicesOf<All, Services>(
  commands: readonly CliCommand<Services>[],
  servicesOf: (all: All) => Services,
): CliCommand<All>[] {
  return commands.map((command) => ({
    ...command,
    run: (input, withServices) =>
      command.run(input, (work) => withServices((all, context) => work(servicesOf(all), context))),
  }));
}
