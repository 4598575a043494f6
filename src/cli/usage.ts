// The CLI's usage text and its answers to a command line that asks for it or does not fit
// (src/main.ts): `--help`, `-h`, `help` or no command at all print the usage on stdout and exit
// 0; `<command> --help` prints the lines of that command; an unknown command, an unknown option
// or a command short of its arguments prints what is wrong, then the usage, on stderr and exits 2
// (wrong usage, as getopt-based tools and the shells' builtins do), never a stack trace. A
// command's own refusal (a tenant that does not exist) stays a UsageError with its message, exit 1.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** The exit code of a command line that does not fit. */
export const WRONG_USAGE_EXIT_CODE = 2;

/** The lines a command adds to the usage text, and the words that name it. */
export interface UsageLines {
  name: string;
  /** Absent for a command of one word (`serve`). */
  subcommand?: string;
  /** Its lines, as printed (each indented by two spaces). */
  usage: string;
}

/** `--help` and `-h`, known to every command. */
export const HELP_OPTION: ParseArgsOptionsConfig = { help: { type: 'boolean', short: 'h' } };

/** A command line that does not fit: its message (if any), then the usage of `words`; exit 2. */
export class CommandLineError extends Error {
  /** The words of the command line that name a command, for the usage printed after. */
  readonly words: readonly string[];

  constructor(message: string, words: readonly string[] = []) {
    super(message);
    this.words = words;
  }
}

export class UsageText {
  /** How the CLI is called: `npm run -s omni --`. */
  private readonly program: string;
  private readonly commands: readonly UsageLines[];

  constructor(program: string, commands: readonly UsageLines[]) {
    this.program = program;
    this.commands = commands;
  }

  /**
   * The usage of the commands `words` name (`tenant`: every tenant command; `tenant create`: that
   * one), or of all without words; undefined when they name none.
   */
  of(words: readonly string[]): string | undefined {
    const [name, subcommand] = words;
    const chosen =
      name === undefined
        ? this.commands
        : this.commands.filter(
            (command) =>
              command.name === name &&
              (subcommand === undefined ||
                command.subcommand === undefined ||
                command.subcommand === subcommand),
          );
    if (chosen.length === 0) return undefined;
    return [
      `Usage: ${this.program} <command> [options]`,
      ...chosen.map((command) => command.usage),
      '',
      `  -h, --help                   this text; after a command, that command's usage`,
    ].join('\n');
  }

  /** The usage of `words`, or of every command when they name none. */
  closestTo(words: readonly string[]): string {
    return this.of(words.slice(0, 2)) ?? this.of(words.slice(0, 1)) ?? (this.of([]) as string);
  }
}

/** The error for a command line whose first words name no command. */
export function unknownCommand(usage: UsageText, words: readonly string[]): CommandLineError {
  const [name, subcommand] = words;
  if (name === undefined || usage.of([name]) === undefined)
    return new CommandLineError(`Unknown command: ${name ?? ''}.`);
  if (subcommand === undefined)
    return new CommandLineError(`Which ${name} command? Name one.`, [name]);
  return new CommandLineError(`Unknown command: ${name} ${subcommand}.`, [name]);
}

/**
 * The command line parsed with `options` (and --help): an unknown option or an option without
 * its value is a CommandLineError, printed with the usage of the command it was given to.
 */
export function parseCommandLine(argv: string[], options: ParseArgsOptionsConfig) {
  const all = { ...options, ...HELP_OPTION };
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: all });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    const { positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: false,
      options: all,
    });
    throw new CommandLineError((error as Error).message, positionals);
  }
}

/** Prints a CommandLineError and the usage on stderr; returns the exit code. */
export function reportCommandLineError(error: CommandLineError, usage: UsageText): number {
  if (error.message) console.error(error.message);
  console.error(usage.closestTo(error.words));
  return WRONG_USAGE_EXIT_CODE;
}
