// The members module: the people of a tenant who sign in to the console, their roles and what
// each role allows, password hashing and policy, the checks of a sign-in with brute-force
// protection, and their sessions: the sign-in page (authorization code with PKCE), refresh
// tokens and sign-out. Tokens themselves are the authorization server's (the oauth module): this
// module gets its token interface through module-wiring.ts and registers the console's grants with it.
import { memberHistoryRoutes } from './member-history-routes.ts';
import type { AppModule, ModuleContext } from '../../module.ts';
import type { AuthorizationServer } from './authorization-server.ts';
import { authorizeRoutes, signInTag } from './authorize-routes.ts';
import { consolePublicClient } from './console-public-client.ts';
import { invitationPageRoutes } from './invitation-page-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { MemberInvitations, type InvitationNeeds } from './member-invitations.ts';
import { memberRoutes, membersTag } from './member-routes.ts';
import { MemberService } from './member-service.ts';
import { MemberSessions } from './member-sessions.ts';
import { MemberSignIn } from './member-sign-in.ts';
import { SignInFormTokens } from './sign-in-form-tokens.ts';
import { membersErrorCodes } from './members-errors.ts';

/** Its commands of the CLI (src/main.ts). */
export { membersCommands } from './members-commands.ts';

export interface MembersServices {
  members: MemberService;
  signIn: MemberSignIn;
  /** Members' sessions: codes, refresh tokens, sign-out. */
  sessions: MemberSessions;
  /** Invitations by e-mail address, accepted on the invitation page. */
  invitations: MemberInvitations;
}

/** The authorization server's token interface, and a way to send e-mail (the outbox). */
export type MembersNeeds = AuthorizationServer & InvitationNeeds;

export const MEMBERS_PRUNE_QUEUE = 'members.prune';

export function createMembersModule(
  context: ModuleContext,
  needs: MembersNeeds,
): AppModule<MembersServices> {
  const { database, config } = context;
  const { tokens } = needs;
  const sessions: MemberSessions = new MemberSessions(
    database,
    tokens,
    (tenantId, memberId, sql) => members.grant(tenantId, memberId, sql),
    config.refreshTokenTtlSeconds,
  );
  const members: MemberService = new MemberService(database, {
    endSessions: (sql, tenantId, memberId) => sessions.endMemberSessions(sql, tenantId, memberId),
    forgetTokens: (tenantId, memberId) => tokens.forget(tenantId, memberId),
  });
  const invitations = new MemberInvitations(database, members, {
    notify: (sql, mail) => needs.notify(sql, mail),
    mailSends: () => needs.mailSends(),
  });
  const signIn = new MemberSignIn(database);
  const formTokens = new SignInFormTokens(tokens.signingKeys);
  tokens.resolveMembersWith((tenantId, memberId) => members.grant(tenantId, memberId));
  needs.publicClients.register(consolePublicClient(sessions));
  return {
    name: 'members',
    errorCodes: membersErrorCodes,
    // Every signed-in member may read the role list (`account`); the rest is the members'.
    permissions: { area: 'security', otherAreas: ['account'] },
    openApiTags: [membersTag, signInTag],
    services: { members, signIn, sessions, invitations },
    routes: async (app) => {
      await app.register(authorizeRoutes, {
        sessions,
        formTokens,
        members,
        signIn,
        https: config.publicScheme === 'https',
      });
      await app.register(invitationPageRoutes, { invitations, tag: signInTag });
      await app.register(invitationRoutes, { invitations });
      await app.register(memberRoutes, { members });
      await app.register(memberHistoryRoutes, { members, invitations, database });
    },
    queues: [
      {
        name: MEMBERS_PRUNE_QUEUE,
        handler: async () => {
          const pruned = await signIn.prune();
          context.log()?.info({ pruned }, 'sign-in failure counts pruned');
          const sessionsPruned = await sessions.prune();
          context.log()?.info({ pruned: sessionsPruned }, 'expired member sessions pruned');
          const invitationsPruned = await invitations.prune();
          context.log()?.info({ pruned: invitationsPruned }, 'long-expired invitations pruned');
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
