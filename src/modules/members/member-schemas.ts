import { Type, type Static } from 'typebox';
import { documentedEnum } from '../../http/documented-only.ts';
import { PagedResult } from '../../http/paging.ts';
import { ROLES } from './roles.ts';

export const USERNAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._@+-]{2,63}$';

const ROLE_IDS = ROLES.map((role) => role.Id);

export const RoleRef = Type.Object(
  {
    Id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'A role of GET /management/security/roles (400 UnknownRole otherwise).',
      ...documentedEnum(ROLE_IDS),
    }),
    Description: Type.Optional(
      Type.String({
        maxLength: 4000,
        description: 'Ignored on input (read-only).',
      }),
    ),
    // So that a role listed by GET /management/security/roles can be sent as it is.
    Permissions: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 64,
        description: 'Ignored on input (read-only).',
      }),
    ),
  },
  { additionalProperties: false, title: 'MemberRoleRequest' },
);

export const MemberCreateBody = Type.Object(
  {
    Username: Type.String({
      pattern: USERNAME_PATTERN,
      description:
        '3..64 characters: letters, digits and . _ @ + - (not first). Kept lowercase; unique in the tenant, case-insensitively.',
    }),
    Name: Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' }),
    Password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'At least 12 characters, 5 different, not containing the username, no run of 6 in sequence, not a common password (docs/api.md). Never answered.',
    }),
    Roles: Type.Array(RoleRef, {
      minItems: 1,
      maxItems: 16,
      description: 'Role ids from GET /management/security/roles.',
    }),
  },
  { additionalProperties: false, title: 'MemberCreateRequest' },
);
export type MemberCreateBody = Static<typeof MemberCreateBody>;

export const MemberUpdateBody = Type.Object(
  {
    Id: Type.Optional(Type.String({ format: 'uuid', description: "Must be the path's id." })),
    Username: Type.String({ pattern: USERNAME_PATTERN }),
    Name: Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' }),
    Password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'A new password (same rules as on create); left out, the password stays.',
      }),
    ),
    Email: Type.Optional(
      Type.Union([Type.String({ maxLength: 254 }), Type.Null()], {
        description: 'Ignored on input (read-only): the address the member was invited at.',
      }),
    ),
    Roles: Type.Array(RoleRef, { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false, title: 'MemberUpdateRequest' },
);
export type MemberUpdateBody = Static<typeof MemberUpdateBody>;

export const MemberRole = Type.Object(
  { Id: Type.String({ ...documentedEnum(ROLE_IDS) }), Description: Type.String() },
  { title: 'MemberRole' },
);

export const Member = Type.Object(
  {
    Id: Type.String({ format: 'uuid' }),
    Username: Type.String(),
    Name: Type.String(),
    Email: Type.Union([Type.String(), Type.Null()], {
      description:
        'The address the member was invited at (POST …/members/invitations); null for members made otherwise.',
    }),
    Roles: Type.Array(MemberRole),
  },
  { title: 'Member', additionalProperties: false },
);
export type Member = Static<typeof Member>;

export const MemberList = PagedResult(Member, 'MemberList');

export const MemberIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const Role = Type.Object(
  {
    Id: Type.String({ ...documentedEnum(ROLE_IDS) }),
    Description: Type.String(),
    Permissions: Type.Array(Type.String(), {
      description:
        'What the role allows: "<area>:read" or "<area>:write" (areas: catalog, storage, analytics, company, apps, integration, security, account), or "*" for everything.',
    }),
  },
  { title: 'Role' },
);

export const RoleList = PagedResult(Role, 'RoleList');
