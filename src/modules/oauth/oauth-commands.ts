// `keys rotate`: the OAuth module's command of the CLI (src/cli/cli-command.ts).
import { cliCommand, type NoOptions, type CliCommand } from '../../cli/cli-command.ts';
import type { OAuthServices } from './oauth-module.ts';

const rotate = cliCommand<OAuthServices, NoOptions>({
  name: 'keys',
  subcommand: 'rotate',
  usage: '  keys rotate                  start signing tokens with a new key',
  options: {},
  async run(_input, withServices) {
    await withServices(async ({ tokens }) => {
      await tokens.keys.load();
      console.log(
        `New signing key ${await tokens.keys.rotate()}; the previous key verifies until its tokens expire.`,
      );
    });
  },
});

export const oauthCommands: readonly CliCommand<OAuthServices>[] = [rotate];
