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

/**
 * The answer of inviting and of sending again: the invitation with its new link, which no other
 * answer carries (the server keeps only the token's hash), and whether the e-mail left.
 */
export const SentInvitation = Type.Object(
  {
    ...Invitation.properties,
    InvitationLink: Type.String({
      format: 'uri',
      description:
        'The link the e-mail carries ({tenant base URL}/oauth/invitation?token=…), answered this once, so that the inviter can hand it over another way (say when no e-mail leaves the server). Sending again makes a new one and the earlier link stops working.',
    }),
    EmailSent: Type.Boolean({
      description:
        'Whether the e-mail leaves the server: false when the server has no mail transport (SMTP_URL is not set), the e-mail is then kept in the outbox unsent and the link must reach the person another way.',
    }),
  },
  { title: 'SentInvitation', additionalProperties: false },
);
export type SentInvitation = Static<typeof SentInvitation>;

export const InvitationList = PagedResult(Invitation, 'InvitationList');

export const InvitationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
