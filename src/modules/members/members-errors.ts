// The members module's error codes.
import { conflict, DomainError, invalid, notFound } from '../../domain/domain-error.ts';

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
