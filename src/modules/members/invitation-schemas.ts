// Schemas of /management/security/members/invitations: inviting a member by e-mail address.
import { Type, type Static } from 'typebox';
import { PagedResult } from '../../http/paging.ts';
import { MemberRole, RoleRef } from './member-schemas.ts';

export const InvitationCreateBody = Type.Object(
  {
    Email: Type.String({
      format: 'email',
      maxLength: 254,
      description:
        'Where the invitation is sent. Kept lowercase. 409 AlreadyMember when a member has it (invited at it, or as username); 409 DuplicateInvitation while an invitation to it has not expired.',
    }),
    Name: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' }), Type.Null()], {
        description:
          'The invitee’s name as the inviter knows it; the invitee confirms or changes it when accepting.',
      }),
    ),
    Roles: Type.Array(RoleRef, {
      minItems: 1,
      maxItems: 16,
      description: 'Role ids from GET /management/security/roles (400 UnknownRole).',
    }),
  },
  { additionalProperties: false, title: 'InvitationCreateRequest' },
);
export type InvitationCreateBody = Static<typeof InvitationCreateBody>;

export const Invitation = Type.Object(
  {
    Id: Type.String({ format: 'uuid' }),
    Email: Type.String(),
    Name: Type.Union([Type.String(), Type.Null()]),
    Roles: Type.Array(MemberRole),
    InvitedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'The username of the member who invited (null when an app’s token did).',
    }),
    CreatedDate: Type.String({ format: 'date-time' }),
    SentDate: Type.String({
      format: 'date-time',
      description: 'When the e-mail was last sent (created or sent again).',
    }),
    ExpirationDate: Type.String({
      format: 'date-time',
      description: 'The link works until then (7 days after it was sent).',
    }),
    IsExpired: Type.Boolean(),
  },
  { title: 'Invitation', additionalProperties: false },
);
export type Invitation = Static<typeof Invitation>;

export const InvitationList = PagedResult(Invitation, 'InvitationList');

export const InvitationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
