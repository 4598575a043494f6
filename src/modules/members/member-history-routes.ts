// The change history of members and invitations at their own paths (docs/api.md, "Change
// history"). No entry shows a password or its hash (only the marker "changed").
import type { FastifyPluginAsync } from 'fastify';
import type { RawSql } from '../../db/connection/database.ts';
import { existsBy, registerHistoryRoutes } from '../../http/history-routes.ts';
import { InvitationIdParams } from './invitation-schemas.ts';
import type { MemberInvitations } from './member-invitations.ts';
import { MemberIdParams } from './member-schemas.ts';
import type { MemberService } from './member-service.ts';
import { invitationNotFound, memberNotFound } from './members-errors.ts';

// Entries name members and invitations by their ids as PostgreSQL spells a uuid: in lower case.
const idOf = (params: Record<string, unknown>) => String(params.id).toLowerCase();

export const memberHistoryRoutes: FastifyPluginAsync<{
  members: MemberService;
  invitations: MemberInvitations;
  database: RawSql;
}> = async (app, { members, invitations, database }) => {
  registerHistoryRoutes(app, {
    url: '/management/security/members/:id',
    resource: 'member',
    name: 'Member',
    params: MemberIdParams,
    resourceId: idOf,
    exists: (tenantId, params) => existsBy(() => members.get(tenantId, idOf(params))),
    notFound: (params) => memberNotFound(idOf(params)),
    database,
  });
  registerHistoryRoutes(app, {
    url: '/management/security/members/invitations/:id',
    resource: 'invitation',
    name: 'Invitation',
    params: InvitationIdParams,
    resourceId: idOf,
    exists: (tenantId, params) => existsBy(() => invitations.get(tenantId, idOf(params))),
    notFound: (params) => invitationNotFound(idOf(params)),
    database,
  });
};
