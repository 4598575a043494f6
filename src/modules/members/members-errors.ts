// The members module's error codes.
import { conflict, invalid, notFound } from '../../domain/domain-error.ts';

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
