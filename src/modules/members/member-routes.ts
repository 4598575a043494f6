// /management/security/members and /management/security/roles.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { registerCrudRoutes } from '../../http/crud-routes.ts';
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
  registerCrudRoutes(instance, {
    tags,
    path: BASE,
    params: MemberIdParams,
    resource: Member,
    etagOf: (updatedAt: Date) => updatedAt,
    service: members,
    create: {
      summary: 'Create a member',
      description:
        'The password is checked against the policy (400 WeakPassword) and kept only as an argon2id hash; no answer carries it. 409 DuplicateUsername.',
      body: MemberCreateBody,
      errors: [409],
    },
    get: { summary: 'Fetch a member' },
    put: {
      summary: 'Update a member (username, name, roles, and the password when given)',
      description:
        'Honours If-Match (412). A new password or other roles end the member’s sessions. The last owner cannot lose the owner role (409 LastOwner).',
      body: MemberUpdateBody,
      errors: [409, 412],
    },
    delete: {
      summary: 'Delete a member',
      description:
        'Its sessions and tokens end at once. The last owner cannot be deleted (409 LastOwner).',
      deleted: Type.Null({ description: 'Deleted' }),
      errors: [409, 412],
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
