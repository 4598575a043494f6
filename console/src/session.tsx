// What the signed-in member may do, read from the access token's claims: a member's token
// carries its permissions in `perm` (`catalog:read`, `catalog:write` … or `*`). The API checks them on every
// call; the console reads them only to hide or disable what would be refused anyway.
import { createContext, useContext } from 'react';
import { tokenClaims, type Session } from './auth.ts';

export type Area =
  'catalog' | 'storage' | 'analytics' | 'company' | 'apps' | 'integration' | 'security' | 'history';

export interface Access {
  /** Who is signed in, for the header. */
  who: string;
  can(area: Area, action: 'read' | 'write'): boolean;
}

export function accessOf(session: Session): Access {
  const claims = tokenClaims(session);
  const raw = claims.perm;
  const who = [claims.preferred_username, claims.sub].find((c) => typeof c === 'string') ?? '';
  // An app token (no permissions claim) is governed by its scopes alone: the API decides.
  if (raw === undefined) return { who, can: () => true };
  const permissions = new Set(Array.isArray(raw) ? raw.map(String) : []);
  return {
    who,
    can: (area, action) =>
      permissions.has('*') ||
      permissions.has(`${area}:${action}`) ||
      // Writing implies reading.
      (action === 'read' && permissions.has(`${area}:write`)),
  };
}

export const AccessContext = createContext<Access>({ who: '', can: () => true });
export const useAccess = () => useContext(AccessContext);
