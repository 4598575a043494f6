// `tenant create|list|delete`: the tenants module's commands of the CLI (src/cli/cli-command.ts).
import { cliCommand, type NoOptions, UsageError, type CliCommand } from '../../cli/cli-command.ts';
import type { TenantService } from './tenant-service.ts';
import { TenantExistsError, TenantNameError } from './tenants-errors.ts';

const json = { json: { type: 'boolean', default: false } } as const;

const create = cliCommand<TenantService, typeof json>({
  name: 'tenant',
  subcommand: 'create',
  usage:
    '  tenant create <name> [--json]  create a tenant, its bootstrap management app and its owner',
  options: json,
  async run({ args: [name], options }, withServices) {
    if (!name) throw new UsageError();
    await withServices(async (tenants, { urls }) => {
      let created;
      try {
        created = await tenants.create(name);
      } catch (error) {
        if (error instanceof TenantNameError || error instanceof TenantExistsError)
          throw new UsageError(error.message);
        throw error;
      }
      const { tenant, bootstrapApp, owner } = created;
      const baseUrl = urls.tenantBaseUrl(tenant.name);
      if (options.json) {
        console.log(
          JSON.stringify({
            Tenant: tenant.name,
            ApplicationId: bootstrapApp.ApplicationId,
            ApplicationSecret: bootstrapApp.ApplicationSecret,
            BaseUrl: baseUrl,
            OwnerUsername: owner.Username,
            OwnerPassword: owner.Password,
          }),
        );
      } else {
        console.log(`Tenant "${tenant.name}" created at ${baseUrl}`);
        console.log(`Bootstrap management app (the secret is shown only now):`);
        console.log(`  ApplicationId:     ${bootstrapApp.ApplicationId}`);
        console.log(`  ApplicationSecret: ${bootstrapApp.ApplicationSecret}`);
        console.log(
          `Owner (signs in to the console; a new password is chosen at the first sign-in):`,
        );
        console.log(`  Username: ${owner.Username}`);
        console.log(`  One-time password: ${owner.Password}`);
        console.log(`  Console: ${baseUrl}/console/`);
      }
    });
  },
});

const list = cliCommand<TenantService, typeof json>({
  name: 'tenant',
  subcommand: 'list',
  usage: '  tenant list [--json]         list tenants',
  options: json,
  async run({ options }, withServices) {
    await withServices(async (tenants, { urls }) => {
      const all = await tenants.list();
      if (options.json)
        console.log(
          JSON.stringify(
            all.map((t) => ({
              Tenant: t.name,
              BaseUrl: urls.tenantBaseUrl(t.name),
              CreatedDate: t.createdAt.toISOString(),
            })),
          ),
        );
      else if (all.length === 0) console.log('No tenants.');
      else
        for (const t of all)
          console.log(`${t.name}\t${urls.tenantBaseUrl(t.name)}\t${t.createdAt.toISOString()}`);
    });
  },
});

const remove = cliCommand<TenantService, NoOptions>({
  name: 'tenant',
  subcommand: 'delete',
  usage: '  tenant delete <name>         delete a tenant and everything it owns',
  options: {},
  async run({ args: [name] }, withServices) {
    if (!name) throw new UsageError();
    const deleted = await withServices((tenants) => tenants.delete(name));
    if (!deleted) throw new UsageError(`Tenant "${name}" does not exist.`);
    console.log(`Tenant "${name}" deleted.`);
  },
});

export const tenantsCommands: readonly CliCommand<TenantService>[] = [create, list, remove];
