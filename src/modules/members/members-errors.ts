// The members module's error codes.
import { conflict, DomainError, invalid, notFound } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const memberNotFound = (id: string) => notFound(`Member ${id}`);

export const duplicateUsername = (username: string) =>
  conflict('DuplicateUsername', `A member with the username "${username}" already exists.`);

export const unknownRole = (id: string) =>
  invalid('UnknownRole', `There is no role "${id}" (see GET /management/security/roles).`, [
    { Field: 'Roles', Message: `unknown role "${id}"` },
  ]);

export const weakPassword = (problem: string) =>
  invalid('WeakPassword', `The password ${problem}.`, [{ Field: 'Password', Message: problem }]);

export const lastOwner = () =>
  conflict(
    'LastOwner',
    'The tenant must keep at least one member with the owner role; make another owner first.',
  );

export const invitationNotFound = (id: string) => notFound(`Invitation ${id}`);

export const alreadyMember = (email: string) =>
  conflict('AlreadyMember', `${email} is already a member of this tenant.`);

export const duplicateInvitation = (email: string) =>
  conflict(
    'DuplicateInvitation',
    `${email} has already been invited and the invitation has not expired; send it again or revoke it.`,
  );

/** The invitation link's token is unknown: never issued, used already, revoked or replaced. */
export const invitationLinkInvalid = () =>
  new DomainError(
    'not-found',
    'InvitationNotFound',
    'This invitation link is not valid any more: it was used already, or the invitation was revoked or sent again. Ask the person who invited you for a new one.',
  );

/** The invitation link's token is known but past its expiry. */
export const invitationLinkExpired = (expiredAt: Date) =>
  new DomainError(
    'conflict',
    'InvitationExpired',
    `This invitation expired on ${expiredAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Ask the person who invited you to send it again.`,
  );

export const invalidUsername = () =>
  invalid(
    'ValidationFailed',
    'The username must be 3 to 64 characters: letters, digits and . _ @ + - (not first).',
    [{ Field: 'Username', Message: 'must be 3 to 64 characters: letters, digits and . _ @ + -' }],
  );

export const blankName = () =>
  invalid('ValidationFailed', 'Enter your name (at most 256 characters).', [
    { Field: 'Name', Message: 'must not be blank' },
  ]);

/** The codes the members module answers besides the shared ones (src/http/error-codes.ts). */
export const membersErrorCodes = {
  AlreadyMember: {
    status: 409,
    meaning: 'The invited e-mail address is already a member of the tenant.',
  },
  DuplicateInvitation: {
    status: 409,
    meaning: 'The address has an invitation that has not expired.',
  },
  DuplicateUsername: { status: 409, meaning: 'Another member of the tenant has this username.' },
  InvitationExpired: { status: 409, meaning: 'The invitation has expired; ask for a new one.' },
  InvitationNotFound: {
    status: 404,
    meaning: 'No invitation has this token (or it was revoked or used).',
  },
  LastOwner: { status: 409, meaning: 'The change would leave the tenant without an owner.' },
  UnknownRole: { status: 400, meaning: 'Roles names a role that does not exist.' },
  WeakPassword: {
    status: 400,
    meaning: 'The password breaks a rule: length, the username in it, no letters, or too common.',
  },
} as const satisfies ErrorCodes;
