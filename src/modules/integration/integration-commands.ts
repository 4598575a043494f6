// `endpoint status`: the integration module's command of the CLI (src/cli/cli-command.ts).
import { cliCommand, type NoOptions, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import { EndpointStatus } from './endpoint-schemas.ts';
import type { IntegrationServices } from './integration-module.ts';

/** An endpoint's status in words (`InProgress`: `in progress`); the number for one unknown. */
function statusInWords(status: number): string {
  const name = Object.entries(EndpointStatus).find(([, value]) => value === status)?.[0];
  return name ? name.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase() : String(status);
}

const status = cliCommand<IntegrationServices, NoOptions>({
  name: 'endpoint',
  subcommand: 'status',
  usage:
    "  endpoint status <tenant>     the tenant's integration endpoint, with the reason of a failure",
  options: {},
  async run({ args: [name] }, withServices) {
    if (!name) throw new UsageError();
    await withServices(async ({ endpoints }, context) => {
      const tenant = await context.tenant(name);
      const row = await endpoints.row(tenant.id);
      if (!row) {
        console.log(`Tenant "${name}" has no integration endpoint.`);
        return;
      }
      console.log(
        `${row.serviceName}: status ${row.status} (${statusInWords(row.status)}), tier ${row.serviceTier}, created ${row.createdAt.toISOString()}`,
      );
      if (row.failureReason) console.log(`Failure reason: ${row.failureReason}`);
    });
  },
});

export const integrationCommands: readonly CliCommand<IntegrationServices>[] = [status];
