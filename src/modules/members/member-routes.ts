// /management/security/members and /management/security/roles.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
import type { OpenApiTag } from '../../http/openapi-operations.ts';
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

export const membersTag: OpenApiTag = {
  name: 'Members',
  description:
    'The people who sign in to the web console, and the roles that decide what their tokens ' +
    'may do.',
};
const tags = [membersTag.name];
const BASE = '/management/security/members';

export const memberRoutes: FastifyPluginAsync<{ members: MemberService }> = async (
  instance,
  { members },
) => {
  registerCrudRoutes(instance, {
    tags,
    name: { one: 'Member', many: 'Members' },
    path: BASE,
    params: MemberIdParams,
    resource: Member,
    etagOf: (updatedAt: Date) => updatedAt,
    service: members,
    create: {
      summary: 'Create a member',
      description:
        'The password is checked against the policy (400 WeakPassword) and kept only as an ' +
        'argon2id hash; no answer carries it. Usernames are unique per tenant whatever the case ' +
        '(409 DuplicateUsername); unknown role ids are 400 UnknownRole.',
      body: MemberCreateBody,
      errors: [409],
    },
    get: { summary: 'Fetch a member' },
    put: {
      summary: 'Update a member (username, name, roles, and the password when given)',
      description:
        'Without Password the password stays. A new password or other roles end the member’s ' +
        'sessions. The last owner cannot lose the owner role (409 LastOwner).',
      body: MemberUpdateBody,
      errors: [409],
    },
    delete: {
      summary: 'Delete a member',
      description:
        'Its sessions and tokens end at once. The last owner cannot be deleted (409 LastOwner).',
      deleted: Type.Null({ description: 'Deleted' }),
      errors: [409],
    },
    list: { summary: 'Fetch a list of members', response: MemberList },
  });
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/management/security/roles',
    {
      config: { area: 'account' },
      schema: {
        tags,
        operationId: 'listRoles',
        summary: 'Fetch the roles a member can hold, with what each allows',
        description:
          'Each role with the permissions it grants. Every signed-in member may read it, ' +
          'whatever its roles. Paged by skip (default 0) and take (default 20) like every list.',
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
