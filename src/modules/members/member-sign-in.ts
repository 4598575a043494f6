// Checks a member's username and password at sign-in, with brute-force protection counted in
// the database (so every instance shares it):
//   - per username: 5 failures within 15 minutes lock the username for 15 minutes;
//   - per client address: 20 failures within 15 minutes lock the address for 15 minutes.
// Unknown usernames are counted and locked like known ones, and a locked sign-in is refused
// whatever password it brings, so neither the answer nor its timing tells whether a username
// exists or whether the password was right.
// Counting is atomic: before its password is checked, an attempt claims a slot of its username's
// count and then of its address's, each in one statement (an upsert that refuses a locked row and
// locks the row it fills up). So N attempts sent at once, on any number of instances, never check
// more passwords than the limits allow. A wrong password keeps its slots (they are the failures);
// a right one gives its address slot back and clears its username's count; an attempt refused at
// the address gives its username slot back. No connection is held while the password is hashed.
import type { DatabaseHandle } from '../../db/connection/database.ts';
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

type Kind = 'username' | 'address';

const LOCKS = `select max(ceil(extract(epoch from (locked_until - now()))))::int as "retryAfter"
  from member_signin_failures
 where tenant_id = $1 and locked_until > now()
   and ((kind = 'username' and key = $2) or (kind = 'address' and key = $3))`;

const MEMBER = `select id, username, security_version as version, roles, password_hash as "hash",
    must_change_password as "mustChange"
  from members where tenant_id = $1 and username = $2`;

// A time as the seconds since 1970 (as text, every digit kept), by functions Citus runs in a
// RETURNING clause (immutable: a timestamptz's own extract depends on the time zone setting).
const EPOCH_OF = (column: string) => `extract(epoch from ${column} - 'epoch'::timestamptz)::text`;

// The statement's time, as its new row holds it, moved by add_seconds: Citus runs no function
// but immutable ones in an upsert's DO UPDATE (docs/design.md, "Citus").
const NOW = 'excluded.first_failed_at';

// A new count starts when the window of the last one is over, when its lock has ended, or when
// every slot of it was given back.
const NEW_COUNT = `(f.failures <= 0 or f.locked_until <= ${NOW}
    or f.first_failed_at < add_seconds(${NOW}, -${FAILURE_WINDOW_SECONDS}))`;

// Claims one slot ($4 = the limit): no row is returned when the key is locked. The slot that
// fills the count up locks it at once, so that attempts running beside it are refused; if that
// attempt then succeeds, it gives the slot back and the lock goes with it. "window" names the
// count the slot belongs to (its first_failed_at, exactly), so that a slot is never given back
// to a later count.
const CLAIM = `
  insert into member_signin_failures as f (tenant_id, kind, key, failures, first_failed_at, locked_until)
  values ($1, $2, $3, 1, now(), add_seconds(now(), case when $4::int <= 1 then ${LOCK_SECONDS} end))
  on conflict (tenant_id, kind, key) do update set
    failures = case when ${NEW_COUNT} then 1 else f.failures + 1 end,
    first_failed_at = case when ${NEW_COUNT} then ${NOW} else f.first_failed_at end,
    locked_until = case when (case when ${NEW_COUNT} then 1 else f.failures + 1 end) >= $4::int
      then add_seconds(${NOW}, ${LOCK_SECONDS}) end
  where f.locked_until is null or f.locked_until <= ${NOW}
  returning ${EPOCH_OF('f.first_failed_at')} as "window"`;

// Gives a claimed slot back (an attempt that was not a wrong password): one failure less, and no
// lock once the count is under the limit ($5) again.
const GIVE_BACK = `
  update member_signin_failures set
    failures = failures - 1,
    locked_until = case when failures - 1 < $5::int then null else locked_until end
  where tenant_id = $1 and kind = $2 and key = $3 and failures > 0
    and extract(epoch from first_failed_at - 'epoch'::timestamptz) = $4::numeric`;

// A right password: the username's count is cleared and the address's slot given back.
const SIGNED_IN = `
  with cleared as (
    delete from member_signin_failures where tenant_id = $1 and kind = 'username' and key = $2)
  update member_signin_failures set
    failures = failures - 1,
    locked_until = case when failures - 1 < ${ADDRESS_FAILURES} then null else locked_until end
  where tenant_id = $1 and kind = 'address' and key = $3 and failures > 0
    and extract(epoch from first_failed_at - 'epoch'::timestamptz) = $4::numeric`;

interface MemberRow {
  id: string;
  username: string;
  version: number;
  roles: string[];
  hash: string;
  mustChange: boolean;
}

/** How a password is checked against a member's hash (replaced in tests to count the checks). */
export type PasswordCheck = (password: string, storedHash?: string) => Promise<boolean>;

export class MemberSignIn {
  private readonly db: DatabaseHandle;
  private readonly passwordMatches: PasswordCheck;
  constructor(db: DatabaseHandle, check: PasswordCheck = passwordMatches) {
    this.db = db;
    this.passwordMatches = check;
  }

  async signIn(
    tenantId: number,
    username: string,
    password: string,
    address: string,
  ): Promise<SignInOutcome> {
    const key = username.toLowerCase().slice(0, 200);
    const usernameSlot = await this.claim(tenantId, 'username', key, USERNAME_FAILURES);
    if (usernameSlot === undefined) return this.locked(tenantId, key, address);
    const addressSlot = await this.claim(tenantId, 'address', address, ADDRESS_FAILURES);
    if (addressSlot === undefined) {
      await this.giveBack(tenantId, 'username', key, usernameSlot, USERNAME_FAILURES);
      return this.locked(tenantId, key, address);
    }

    let member: MemberRow | undefined;
    let matches: boolean;
    try {
      [member] = await this.db.prepared<MemberRow>('members_signin_member', MEMBER, [
        tenantId,
        key,
      ]);
      matches = await this.passwordMatches(password, member?.hash);
    } catch (error) {
      // Not a wrong password (the database or the hashing failed): the slots go back.
      await Promise.allSettled([
        this.giveBack(tenantId, 'username', key, usernameSlot, USERNAME_FAILURES),
        this.giveBack(tenantId, 'address', address, addressSlot, ADDRESS_FAILURES),
      ]);
      throw error;
    }
    if (!matches || !member) return { refused: 'invalid' };

    await this.db.prepared('members_signin_succeeded', SIGNED_IN, [
      tenantId,
      key,
      address,
      addressSlot,
    ]);
    const { id, version, roles, mustChange } = member;
    return {
      member: { id, username: member.username, version, roles, permissions: permissionsOf(roles) },
      mustChangePassword: mustChange,
    };
  }

  /** Claims a slot of a count; answers the count's window, or undefined when it is locked. */
  private async claim(
    tenantId: number,
    kind: Kind,
    key: string,
    limit: number,
  ): Promise<string | undefined> {
    const [row] = await this.db.prepared<{ window: string }>('members_signin_claim', CLAIM, [
      tenantId,
      kind,
      key,
      limit,
    ]);
    return row?.window;
  }

  private async giveBack(
    tenantId: number,
    kind: Kind,
    key: string,
    window: string,
    limit: number,
  ): Promise<void> {
    await this.db.prepared('members_signin_give_back', GIVE_BACK, [
      tenantId,
      kind,
      key,
      window,
      limit,
    ]);
  }

  private async locked(tenantId: number, key: string, address: string): Promise<SignInOutcome> {
    const [lock] = await this.db.query<{ retryAfter: number | null }>(LOCKS, [
      tenantId,
      key,
      address,
    ]);
    // A lock that ended in between: the client may try again at once (Retry-After: 1).
    return { refused: 'locked', retryAfterSeconds: Math.max(1, lock?.retryAfter ?? 1) };
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
