// `member create`: the members module's command of the CLI (src/cli/cli-command.ts).
import { cliCommand, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import { DomainError } from '../../domain/domain-error.ts';
import type { MembersServices } from './members-module.ts';

const options = {
  role: { type: 'string', multiple: true },
  name: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

const create = cliCommand<MembersServices, typeof options>({
  name: 'member',
  subcommand: 'create',
  usage:
    '  member create <tenant> <username> [--role <id>]… [--name <text>] [--json]\n' +
    '                               create a console member; prints a one-time password',
  options,
  async run({ args: [tenantName, username], options }, withServices) {
    if (!tenantName || !username) throw new UsageError();
    await withServices(async ({ members }, context) => {
      const tenant = await context.tenant(tenantName);
      const roles = options.role?.length ? options.role : ['owner'];
      let created;
      try {
        created = await members.createWithPassword(
          tenant.id,
          username,
          roles,
          options.name ?? username,
        );
      } catch (error) {
        if (error instanceof DomainError) throw new UsageError(error.message);
        throw error;
      }
      const { member, password } = created;
      if (options.json) {
        console.log(
          JSON.stringify({
            Tenant: tenant.name,
            Id: member.Id,
            Username: member.Username,
            Roles: member.Roles.map((r) => r.Id),
            Password: password,
          }),
        );
        return;
      }
      console.log(`Member "${member.Username}" created in tenant "${tenant.name}" (${member.Id}).`);
      console.log(`  Roles: ${member.Roles.map((r) => r.Id).join(', ')}`);
      console.log(
        `  One-time password (shown only now; a new one is chosen at the first sign-in):`,
      );
      console.log(`  ${password}`);
    });
  },
});

export const membersCommands: readonly CliCommand<MembersServices>[] = [create];
