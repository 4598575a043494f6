// /management/security/members/invitations: invite a member by e-mail address, list the open
// invitations, send one again, revoke one. The invitee accepts on the invitation page of the
// sign-in interface (invitation-page-routes.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/error-body.ts';
import { PagingQuery } from '../../http/paging.ts';
import { LOCATION, withHeaders } from '../../http/response-headers.ts';
import {
  Invitation,
  InvitationCreateBody,
  InvitationIdParams,
  InvitationList,
  SentInvitation,
} from './invitation-schemas.ts';
import { INVITATION_PATH, type MemberInvitations } from './member-invitations.ts';
import { membersTag } from './member-routes.ts';

const tags = [membersTag.name];
const BASE = '/management/security/members/invitations';

export const invitationRoutes: FastifyPluginAsync<{ invitations: MemberInvitations }> = async (
  instance,
  { invitations },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const tenantOf = (request: { tenant: { id: number; name: string; baseUrl: string } }) => ({
    id: request.tenant.id,
    name: request.tenant.name,
    baseUrl: request.tenant.baseUrl,
  });

  app.post(
    BASE,
    {
      schema: {
        tags,
        operationId: 'createInvitation',
        summary: 'Invite a member by e-mail address',
        description:
          `Records the invitation and sends its e-mail (through the notification outbox) with a link to ${INVITATION_PATH}?token=…, ` +
          'where the invitee chooses a username and a password (the password policy applies) and becomes a member with the given roles. ' +
          'The link works once and for 7 days. 409 AlreadyMember when a member was invited at the address or has it as username; ' +
          '409 DuplicateInvitation while an earlier invitation to it has not expired (an expired one is replaced). ' +
          'Unknown role ids are 400 UnknownRole. Answers 201 with the invitation and its Location, with the link (InvitationLink) this once, ' +
          'and EmailSent false when the server sends no e-mail (SMTP_URL not set): the link must then reach the person another way.',
        body: InvitationCreateBody,
        response: { 201: withHeaders(SentInvitation, LOCATION), ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = await invitations.invite(
        tenantOf(request),
        request.body,
        request.principal?.memberId,
      );
      return reply.code(201).header('Location', `${BASE}/${created.Id}`).send(created);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: 'Fetch a list of open invitations',
        description:
          'Invitations not accepted or revoked yet, in creation order, expired ones included (IsExpired) until 30 days after they expired. ' +
          'One page at a time: skip (default 0) and take (1 to 1000, default 20); TotalCount counts them all.',
        querystring: PagingQuery,
        response: { 200: InvitationList },
      },
    },
    async (request) => invitations.list(request.tenant.id, request.query),
  );

  app.get(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        operationId: 'getInvitation',
        summary: 'Fetch an open invitation',
        description: '404 once it was accepted or revoked, or for an unknown id.',
        params: InvitationIdParams,
        response: { 200: Invitation },
      },
    },
    async (request) => invitations.get(request.tenant.id, request.params.id),
  );

  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteInvitation',
        summary: 'Revoke an invitation',
        description:
          'Its link stops working at once (the invitation page says it is no longer valid). Answers 204; 404 once it was accepted or revoked.',
        params: InvitationIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }) },
      },
    },
    async (request, reply) => {
      await invitations.revoke(request.tenant.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:id/resend`,
    {
      schema: {
        tags,
        operationId: 'resendInvitation',
        summary: 'Send an invitation again',
        description:
          'A new e-mail with a new link, which works for 7 days from now; the earlier link stops working. An expired invitation can be sent again. ' +
          'Answers the invitation with the new link (InvitationLink) this once, and EmailSent as for inviting. ' +
          '409 AlreadyMember when the address has become a member meanwhile; 404 once it was accepted or revoked.',
        params: InvitationIdParams,
        response: { 200: SentInvitation, ...errorResponses(409) },
      },
    },
    async (request) => invitations.resend(tenantOf(request), request.params.id),
  );
};
