// Checks a member's username and password at sign-in, with brute-force protection counted in
// the database (so every instance shares it):
//   - per username: 5 failures within 15 minutes lock the username for 15 minutes;
//   - per client address: 20 failures within 15 minutes lock the address for 15 minutes.
// Unknown usernames are counted and locked like known ones, and a locked sign-in is refused
// whatever password it brings, so neither the answer nor its timing tells whether a username
// exists or whether the password was right. Attempts for one username take turns (an advisory
// lock), so guesses sent in parallel are counted one after the other.
import type { DatabaseHandle, RawSql } from '../../db/database.ts';
import type { MemberGrant } from './member-service.ts';
import { passwordMatches } from './passwords.ts';
import { permissionsOf } from './roles.ts';

export const USERNAME_FAILURES = 5;
export const ADDRESS_FAILURES = 20;
export const FAILURE_WINDOW_SECONDS = 900;
export const LOCK_SECONDS = 900;

export type SignInOutcome =
  | { member: MemberGrant; mustChangePassword: boolean }
  | { refused: 'invalid' }
  | { refused: 'locked'; retryAfterSeconds: number };

const TURN = `select pg_advisory_xact_lock(hashtextextended($1 || '/signin/' || $2, 13))`;

const LOCKS = `select max(ceil(extract(epoch from (locked_until - now()))))::int as "retryAfter"
  from member_signin_failures
 where tenant_id = $1 and locked_until > now()
   and ((kind = 'username' and key = $2) or (kind = 'address' and key = $3))`;

const MEMBER = `select id, username, security_version as version, roles, password_hash as "hash",
    must_change_password as "mustChange"
  from members where tenant_id = $1 and username = $2`;

// Failures older than the window start a new count; reaching the limit locks for LOCK_SECONDS.
const RECORD_FAILURE = `
  insert into member_signin_failures as f (tenant_id, kind, key, failures, locked_until)
  values ($1, $2, $3, 1, case when $4::int <= 1 then now() + make_interval(secs => ${LOCK_SECONDS}) end)
  on conflict (tenant_id, kind, key) do update set
    failures = case when f.first_failed_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) then 1 else f.failures + 1 end,
    first_failed_at = case when f.first_failed_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) then now() else f.first_failed_at end,
    locked_until = case
      when f.first_failed_at >= now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}) and f.failures + 1 >= $4::int
      then now() + make_interval(secs => ${LOCK_SECONDS})
      else null end`;

interface MemberRow {
  id: string;
  username: string;
  version: number;
  roles: string[];
  hash: string;
  mustChange: boolean;
}

export class MemberSignIn {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async signIn(
    tenantId: number,
    username: string,
    password: string,
    address: string,
  ): Promise<SignInOutcome> {
    const key = username.toLowerCase().slice(0, 200);
    return this.db.rawTransaction(async (sql) => {
      await sql.query(TURN, [String(tenantId), key]);
      const [lock] = await sql.query<{ retryAfter: number | null }>(LOCKS, [
        tenantId,
        key,
        address,
      ]);
      if (lock?.retryAfter) return { refused: 'locked', retryAfterSeconds: lock.retryAfter };
      const [member] = await sql.query<MemberRow>(MEMBER, [tenantId, key]);
      if (!(await passwordMatches(password, member?.hash))) {
        await this.recordFailure(sql, tenantId, key, address);
        return { refused: 'invalid' };
      }
      await sql.query(
        `delete from member_signin_failures where tenant_id = $1 and kind = 'username' and key = $2`,
        [tenantId, key],
      );
      const { id, version, roles, mustChange } = member!;
      return {
        member: {
          id,
          username: member!.username,
          version,
          roles,
          permissions: permissionsOf(roles),
        },
        mustChangePassword: mustChange,
      };
    });
  }

  private async recordFailure(
    sql: RawSql,
    tenantId: number,
    username: string,
    address: string,
  ): Promise<void> {
    await sql.query(RECORD_FAILURE, [tenantId, 'username', username, USERNAME_FAILURES]);
    await sql.query(RECORD_FAILURE, [tenantId, 'address', address, ADDRESS_FAILURES]);
  }

  /** Removes counts whose window is over and whose lock has ended (a scheduled job). */
  async prune(): Promise<number> {
    const rows = await this.db.query(
      `delete from member_signin_failures
        where first_failed_at < now() - make_interval(secs => $1)
          and (locked_until is null or locked_until < now())
       returning 1`,
      [FAILURE_WINDOW_SECONDS],
    );
    return rows.length;
  }
}
