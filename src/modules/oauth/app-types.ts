// Application types and the scopes each grants (contract §3).
import type { Scope } from '../../domain/principal.ts';

export interface ApplicationType {
  id: number;
  description: string;
  scopes: readonly Scope[];
  /** May ask for identity tokens bound to a physical device. */
  identityTokens: boolean;
}

export const APPLICATION_TYPES: Readonly<Record<number, ApplicationType>> = {
  1: { id: 1, description: 'Consumer', scopes: ['public'], identityTokens: true },
  2: { id: 2, description: 'Private', scopes: ['public', 'private'], identityTokens: false },
  3: {
    id: 3,
    description: 'Management',
    scopes: ['public', 'private', 'management'],
    identityTokens: false,
  },
  4: { id: 4, description: 'Device', scopes: ['public'], identityTokens: true },
};

export const MANAGEMENT_APP_TYPE = 3;

export function applicationType(id: number): ApplicationType {
  const type = APPLICATION_TYPES[id];
  if (!type) throw new RangeError(`Unknown application type ${id}`);
  return type;
}
