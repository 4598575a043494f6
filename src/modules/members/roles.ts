// The roles a member can hold and the permissions each grants (route-permissions.ts says which
// permission a route needs). Fixed by the server: a tenant assigns them, it does not define them.
import type { Permission } from '../../domain/principal.ts';

export interface Role {
  Id: string;
  Description: string;
  /** What the role allows; `*` is everything. */
  Permissions: Permission[];
}

export const OWNER_ROLE = 'owner';

export const ROLES: readonly Role[] = [
  {
    Id: OWNER_ROLE,
    Description: 'Owner: everything, members and apps included',
    Permissions: ['*'],
  },
  {
    Id: 'catalog-editor',
    Description: 'Catalog editor: catalog and storage (read and write), analytics (read)',
    Permissions: [
      'catalog:read',
      'catalog:write',
      'storage:read',
      'storage:write',
      'analytics:read',
      'account:read',
    ],
  },
  {
    Id: 'analyst',
    Description: 'Analyst: read-only catalog, storage, analytics and company',
    Permissions: ['catalog:read', 'storage:read', 'analytics:read', 'company:read', 'account:read'],
  },
  {
    Id: 'device-manager',
    Description:
      'Device manager: stores, device types and devices (read and write), catalog (read)',
    Permissions: ['company:read', 'company:write', 'catalog:read', 'account:read'],
  },
  {
    Id: 'admin',
    Description: 'Admin: everything but members and apps, and the change history (read)',
    Permissions: [
      'catalog:read',
      'catalog:write',
      'storage:read',
      'storage:write',
      'analytics:read',
      'analytics:write',
      'company:read',
      'company:write',
      'integration:read',
      'integration:write',
      'history:read',
      'account:read',
    ],
  },
];

const BY_ID = new Map(ROLES.map((role) => [role.Id, role]));

export function roleById(id: string): Role | undefined {
  return BY_ID.get(id);
}

/** Every permission the roles grant together, in a stable order. */
export function permissionsOf(roleIds: readonly string[]): Permission[] {
  const all = new Set<Permission>();
  for (const id of roleIds) for (const p of BY_ID.get(id)?.Permissions ?? []) all.add(p);
  return all.has('*') ? ['*'] : [...all].sort();
}
