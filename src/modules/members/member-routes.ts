// /management/security/members and /management/security/roles (issue 18).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/error-body.ts';
import { ifMatch, withEtag } from '../../http/etag.ts';
import { PagingQuery } from '../../http/paging.ts';
import {
  Member,
  MemberCreateBody,
  MemberIdParams,
  MemberList,
  MemberUpdateBody,
  RoleList,
} from './member-schemas.ts';
import type { MemberService } from './member-service.ts';
import { ROLES } from './roles.ts';

const tags = ['Members'];
const BASE = '/management/security/members';

export const memberRoutes: FastifyPluginAsync<{ members: MemberService }> = async (
  instance,
  { members },
) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Create a member',
        description:
          'The password is checked against the policy (400 WeakPassword) and kept only as an argon2id hash; no answer carries it. 409 DuplicateUsername.',
        body: MemberCreateBody,
        response: { 201: Member, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const created = await members.create(request.tenant.id, request.body);
      reply.header('Location', `${BASE}/${created.value.Id}`);
      return reply.code(201).send(withEtag(reply, created));
    },
  );

  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: 'Fetch a list of members',
        querystring: PagingQuery,
        response: { 200: MemberList },
      },
    },
    async (request) => members.list(request.tenant.id, request.query),
  );

  app.get(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Fetch a member',
        params: MemberIdParams,
        response: { 200: Member },
      },
    },
    async (request, reply) =>
      withEtag(reply, await members.get(request.tenant.id, request.params.id)),
  );

  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a member (username, name, roles, and the password when given)',
        description:
          'Honours If-Match (412). A new password or other roles end the member’s sessions. The last owner cannot lose the owner role (409 LastOwner).',
        params: MemberIdParams,
        body: MemberUpdateBody,
        response: { 200: Member, ...errorResponses(409, 412) },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await members.update(request.tenant.id, request.params.id, request.body, ifMatch(request)),
      ),
  );

  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a member',
        description:
          'Its sessions and tokens end at once. The last owner cannot be deleted (409 LastOwner).',
        params: MemberIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(409, 412) },
      },
    },
    async (request, reply) => {
      await members.delete(request.tenant.id, request.params.id, ifMatch(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/management/security/roles',
    {
      config: { area: 'account' },
      schema: {
        tags,
        summary: 'Fetch the roles a member can hold, with what each allows',
        description: 'Every signed-in member may read it, whatever its roles.',
        querystring: PagingQuery,
        response: { 200: RoleList },
      },
    },
    async (request) => {
      const { skip, take } = request.query;
      return { Results: ROLES.slice(skip, skip + take), TotalCount: ROLES.length };
    },
  );
};
