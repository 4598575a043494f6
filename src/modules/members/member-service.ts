// Members of a tenant: the rules live here, the routes only translate HTTP. Passwords
// are checked against the policy and hashed (passwords.ts); no answer ever carries one or its
// hash. A change of password or roles ends the member's sessions (its tokens and refresh
// tokens), and the tenant always keeps one owner.
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { NEXT_UPDATED_AT } from '../../db/queries/row-version.ts';
import { assertBodyIdMatches } from '../../domain/body-id.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import {
  duplicateUsername,
  lastOwner,
  memberNotFound,
  unknownRole,
  weakPassword,
} from './members-errors.ts';
import type { Member, MemberCreateBody, MemberUpdateBody } from './member-schemas.ts';
import { generatePassword, hashPassword, passwordProblem } from './passwords.ts';
import { OWNER_ROLE, ROLES, permissionsOf, roleById } from './roles.ts';

/** What a change of a member does to its sessions and tokens (wired in members-module.ts). */
export interface MemberSessionNeeds {
  /** Ends, inside the caller's transaction, every session and token of a member. */
  endSessions(sql: RawSql, tenantId: number, memberId: string): Promise<void>;
  /** After the commit: drops this instance's cached tokens of the member. */
  forgetTokens(tenantId: number, memberId: string): void;
}

/** A member as token issuance and verification see it. */
export interface MemberGrant {
  id: string;
  username: string;
  /** Carried in the member's tokens as `ver`; moves on a change of password or roles. */
  version: number;
  roles: string[];
  permissions: string[];
}

/** A member made with a password the server chose (shown once). */
export interface MemberWithPassword {
  member: Member;
  password: string;
}

interface MemberRow {
  id: string;
  username: string;
  name: string;
  email: string | null;
  roles: string[];
  version: Date;
}

const COLUMNS = 'id, username, name, email, roles, updated_at as version';
/** Serializes the writes of a tenant's members (and invitations) that check other rows first. */
export const MEMBERS_TURN = "select pg_advisory_xact_lock(hashtextextended('members/' || $1, 11))";
export const OWNER_USERNAME = 'owner';

function toMember(row: Pick<MemberRow, 'id' | 'username' | 'name' | 'email' | 'roles'>): Member {
  const held = new Set(row.roles);
  return {
    Id: row.id,
    Username: row.username,
    Name: row.name,
    Email: row.email,
    Roles: ROLES.filter((r) => held.has(r.Id)).map(({ Id, Description }) => ({ Id, Description })),
  };
}

/** The role ids of a body, each known, without repeats. */
export function roleIds(roles: { Id: string }[]): string[] {
  const ids = [...new Set(roles.map((r) => r.Id))];
  for (const id of ids) if (!roleById(id)) throw unknownRole(id);
  return ids;
}

export function checkedPassword(password: string, username: string): string {
  const problem = passwordProblem(password, username);
  if (problem) throw weakPassword(problem);
  return password;
}

export interface Versioned<T> {
  value: T;
  version: Date;
}

export class MemberService {
  private readonly db: DatabaseHandle;
  private readonly needs: MemberSessionNeeds;

  constructor(db: DatabaseHandle, needs: MemberSessionNeeds) {
    this.db = db;
    this.needs = needs;
  }

  async list(tenantId: number, paging: Paging): Promise<Page<Member>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<MemberRow>(
        `select ${COLUMNS} from members where tenant_id = $1
          order by created_seq offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>('select count(*)::int as n from members where tenant_id = $1', [
        tenantId,
      ]),
    ]);
    return { Results: rows.map(toMember), TotalCount: total?.n ?? 0 };
  }

  async get(tenantId: number, id: string): Promise<Versioned<Member>> {
    const [row] = await this.db.query<MemberRow>(
      `select ${COLUMNS} from members where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw memberNotFound(id);
    return { value: toMember(row), version: row.version };
  }

  async create(tenantId: number, body: MemberCreateBody): Promise<Versioned<Member>> {
    const username = body.Username.toLowerCase();
    const roles = roleIds(body.Roles);
    const hash = await hashPassword(checkedPassword(body.Password, username));
    const [row] = await translatingConstraints(
      () =>
        this.db.query<MemberRow>(
          `insert into members (tenant_id, id, username, name, password_hash, roles)
           values ($1, $2, $3, $4, $5, $6) on conflict (tenant_id, username) do nothing
           returning ${COLUMNS}`,
          [tenantId, randomUUID(), username, body.Name, hash, roles],
        ),
      { unique: () => duplicateUsername(username) },
    );
    if (!row) throw duplicateUsername(username);
    return { value: toMember(row), version: row.version };
  }

  /**
   * A member with a password the server makes, shown once; the member must choose another at
   * the first sign-in (`omni member create`). `executor` is the tenant creation's transaction.
   */
  async createWithPassword(
    tenantId: number,
    username: string,
    roles: string[],
    name: string,
    executor?: RawSql,
  ): Promise<MemberWithPassword> {
    const normalized = username.toLowerCase();
    const ids = roleIds(roles.map((Id) => ({ Id })));
    const password = generatePassword(normalized);
    const hash = await hashPassword(password);
    const id = randomUUID();
    const rows = await (executor ?? this.db).query(
      `insert into members (tenant_id, id, username, name, password_hash, roles, must_change_password)
       values ($1, $2, $3, $4, $5, $6, true) on conflict (tenant_id, username) do nothing
       returning id`,
      [tenantId, id, normalized, name, hash, ids],
    );
    const inserted = rows.length > 0;
    if (!inserted) throw duplicateUsername(normalized);
    return {
      member: toMember({ id, username: normalized, name, email: null, roles: ids }),
      password,
    };
  }

  /**
   * A member who accepted an invitation, in the caller's transaction: the username and password
   * it chose (checked and hashed by the caller), and the address it was invited at. A username
   * taken is 409 DuplicateUsername; a member with that address already, 409 AlreadyMember.
   */
  async createInvited(
    sql: RawSql,
    tenantId: number,
    member: {
      username: string;
      name: string;
      passwordHash: string;
      roles: string[];
      email: string;
    },
  ): Promise<Member> {
    const [row] = await sql.query<MemberRow>(
      `insert into members (tenant_id, id, username, name, password_hash, roles, email)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (tenant_id, username) do nothing
       returning ${COLUMNS}`,
      [
        tenantId,
        randomUUID(),
        member.username,
        member.name,
        member.passwordHash,
        member.roles,
        member.email,
      ],
    );
    if (!row) throw duplicateUsername(member.username);
    return toMember(row);
  }

  /** Whether a member of the tenant was invited at this address or has it as username. */
  async hasAddress(sql: RawSql, tenantId: number, email: string): Promise<boolean> {
    const rows = await sql.query(
      'select 1 from members where tenant_id = $1 and (email = $2 or username = $2) limit 1',
      [tenantId, email],
    );
    return rows.length > 0;
  }

  /** The tenant's first owner, made with the tenant in the caller's transaction. */
  createOwner(tx: RawSql, tenantId: number): Promise<MemberWithPassword> {
    return this.createWithPassword(tenantId, OWNER_USERNAME, [OWNER_ROLE], 'Owner', tx);
  }

  async update(
    tenantId: number,
    id: string,
    body: MemberUpdateBody,
    checkVersion: (version: Date) => void,
  ): Promise<Versioned<Member>> {
    assertBodyIdMatches(body.Id, id);
    const username = body.Username.toLowerCase();
    const roles = roleIds(body.Roles);
    const hash =
      body.Password === undefined
        ? undefined
        : await hashPassword(checkedPassword(body.Password, username));
    let endedSessions = false;
    const result = await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await sql.query(MEMBERS_TURN, [String(tenantId)]);
          const current = await this.locked(sql, tenantId, id, checkVersion);
          if (current.roles.includes(OWNER_ROLE) && !roles.includes(OWNER_ROLE))
            await this.assertAnotherOwner(sql, tenantId, id);
          const rolesChanged =
            roles.length !== current.roles.length || roles.some((r) => !current.roles.includes(r));
          endedSessions = rolesChanged || hash !== undefined;
          const [row] = await sql.query<MemberRow>(
            `update members set username = $3, name = $4, roles = $5,
                password_hash = coalesce($6, password_hash),
                must_change_password = must_change_password and $6::text is null,
                security_version = security_version + $7,
                updated_at = ${NEXT_UPDATED_AT}
              where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
            [tenantId, id, username, body.Name, roles, hash ?? null, endedSessions ? 1 : 0],
          );
          if (endedSessions) await this.needs.endSessions(sql, tenantId, id);
          return { value: toMember(row!), version: row!.version };
        }),
      { unique: () => duplicateUsername(username) },
    );
    if (endedSessions) this.needs.forgetTokens(tenantId, id);
    return result;
  }

  async delete(tenantId: number, id: string, checkVersion: (version: Date) => void): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      await sql.query(MEMBERS_TURN, [String(tenantId)]);
      const current = await this.locked(sql, tenantId, id, checkVersion);
      if (current.roles.includes(OWNER_ROLE)) await this.assertAnotherOwner(sql, tenantId, id);
      await this.needs.endSessions(sql, tenantId, id);
      await sql.query('delete from members where tenant_id = $1 and id = $2', [tenantId, id]);
    });
    this.needs.forgetTokens(tenantId, id);
  }

  /** Sets a new password chosen at sign-in (the member had to change the one it was given). */
  async changePassword(tenantId: number, id: string, password: string): Promise<MemberGrant> {
    const [current] = await this.db.query<{ username: string }>(
      'select username from members where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    if (!current) throw memberNotFound(id);
    const hash = await hashPassword(checkedPassword(password, current.username));
    const grant = await this.db.rawTransaction(async (sql) => {
      await sql.query(
        `update members set password_hash = $3, must_change_password = false,
            security_version = security_version + 1, updated_at = ${NEXT_UPDATED_AT}
          where tenant_id = $1 and id = $2`,
        [tenantId, id, hash],
      );
      await this.needs.endSessions(sql, tenantId, id);
      return this.grantWith(sql, tenantId, id);
    });
    this.needs.forgetTokens(tenantId, id);
    if (!grant) throw memberNotFound(id);
    return grant;
  }

  /** The member as tokens carry it, or undefined when it no longer exists; `sql` is the
   * caller's open transaction, if any. */
  grant(tenantId: number, id: string, sql: RawSql = this.db): Promise<MemberGrant | undefined> {
    return this.grantWith(sql, tenantId, id);
  }

  private async grantWith(
    sql: RawSql,
    tenantId: number,
    id: string,
  ): Promise<MemberGrant | undefined> {
    const [row] = await sql.prepared<{
      id: string;
      username: string;
      version: number;
      roles: string[];
    }>(
      'member_grant',
      `select id, username, security_version as version, roles from members
        where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    return row && { ...row, permissions: permissionsOf(row.roles) };
  }

  private async locked(
    sql: RawSql,
    tenantId: number,
    id: string,
    checkVersion: (version: Date) => void,
  ): Promise<MemberRow> {
    const [row] = await sql.query<MemberRow>(
      `select ${COLUMNS} from members where tenant_id = $1 and id = $2 for update`,
      [tenantId, id],
    );
    if (!row) throw memberNotFound(id);
    checkVersion(row.version);
    return row;
  }

  private async assertAnotherOwner(sql: RawSql, tenantId: number, id: string): Promise<void> {
    const [other] = await sql.query(
      `select 1 from members where tenant_id = $1 and id <> $2 and $3 = any(roles) limit 1`,
      [tenantId, id, OWNER_ROLE],
    );
    if (!other) throw lastOwner();
  }
}
