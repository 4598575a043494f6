// The members module (issue 18): the people of a tenant who sign in to the console, their
// roles and what each role allows, password hashing and policy, and the checks of a sign-in
// with brute-force protection. The OAuth flows that sign a member in live in the oauth module,
// which gets `signIn` and `grant` from here through app.ts.
import type { AppModule, ModuleContext } from '../../module.ts';
import { memberRoutes } from './member-routes.ts';
import { MemberService, type MemberSessionNeeds } from './member-service.ts';
import { MemberSignIn } from './member-sign-in.ts';

export interface MembersServices {
  members: MemberService;
  signIn: MemberSignIn;
}

export const MEMBERS_PRUNE_QUEUE = 'members.prune';

export function createMembersModule(
  context: ModuleContext,
  needs: MemberSessionNeeds,
): AppModule<MembersServices> {
  const members = new MemberService(context.database, needs);
  const signIn = new MemberSignIn(context.database);
  return {
    name: 'members',
    // Every signed-in member may read the role list (`account`); the rest is the members'.
    permissions: { area: 'security', otherAreas: ['account'] },
    services: { members, signIn },
    routes: async (app) => {
      await app.register(memberRoutes, { members });
    },
    queues: [
      {
        name: MEMBERS_PRUNE_QUEUE,
        handler: async () => {
          const pruned = await signIn.prune();
          context.log()?.info({ pruned }, 'sign-in failure counts pruned');
        },
        retryLimit: 2,
        retryDelaySeconds: 60,
        expireInSeconds: 300,
        concurrency: 1,
        cron: '*/15 * * * *',
      },
    ],
  };
}
