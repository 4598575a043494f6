// Invitations: a member is invited by e-mail address and chooses its own username and password
// through the link the e-mail carries. The e-mail goes through the notification outbox in the
// transaction that records the invitation (members-module.ts gets `notify` through module-wiring.ts). The
// link's token is random (256 bits), single-use and expires after INVITATION_TTL_SECONDS; only
// its SHA-256 hash is kept. Accepting makes the member and deletes the invitation in one
// transaction, so a token works once even when two browsers send it at the same time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import type { Invitation, InvitationCreateBody, SentInvitation } from './invitation-schemas.ts';
import {
  alreadyMember,
  blankName,
  duplicateInvitation,
  invalidUsername,
  invitationLinkExpired,
  invitationLinkInvalid,
  invitationNotFound,
} from './members-errors.ts';
import { USERNAME_PATTERN, type Member } from './member-schemas.ts';
import { MEMBERS_TURN, checkedPassword, roleIds, type MemberService } from './member-service.ts';
import { hashPassword } from './passwords.ts';
import { ROLES, roleById } from './roles.ts';

/** How long an invitation link works after it was sent: 7 days. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Expired invitations stay listed this long (to be sent again), then the prune job drops them. */
export const EXPIRED_INVITATION_RETENTION_DAYS = 30;
/** The page of the sign-in interface the link opens (invitation-page-routes.ts). */
export const INVITATION_PATH = '/oauth/invitation';

/** An e-mail to send, recorded in the caller's transaction (the notification outbox's enqueue). */
export interface InvitationMail {
  tenantId: number;
  recipient: string;
  subject: string;
  body: string;
}

export interface InvitationNeeds {
  notify(sql: RawSql, mail: InvitationMail): Promise<unknown>;
  /** Whether recorded e-mails leave the server (SMTP_URL is set); else they stay in the outbox. */
  mailSends(): boolean;
}

/** The tenant an invitation is sent for: its name and base URL go into the e-mail. */
export interface InvitingTenant {
  id: number;
  name: string;
  baseUrl: string;
}

interface InvitationRow {
  id: string;
  email: string;
  name: string | null;
  roles: string[];
  invitedBy: string | null;
  createdAt: Date;
  sentAt: Date;
  expiresAt: Date;
  expired: boolean;
}

// Read from the table or from a CTE of the rows a write returns (Citus runs no function but
// immutable ones in a RETURNING clause, and now() is not).
const COLUMNS = `id, email, name, roles, invited_by as "invitedBy", created_at as "createdAt",
  sent_at as "sentAt", expires_at as "expiresAt", expires_at <= now() as expired`;

/** What the invitation page shows of an open invitation. */
export interface OpenInvitation {
  email: string;
  name: string | null;
  roles: string[];
  invitedBy: string | null;
  expiresAt: Date;
}

/** What the invitee chose on the invitation page. */
export interface Acceptance {
  name: string;
  username: string;
  password: string;
}

const USERNAME = new RegExp(USERNAME_PATTERN);

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

function toInvitation(row: InvitationRow): Invitation {
  const held = new Set(row.roles);
  return {
    Id: row.id,
    Email: row.email,
    Name: row.name,
    Roles: ROLES.filter((r) => held.has(r.Id)).map(({ Id, Description }) => ({ Id, Description })),
    InvitedBy: row.invitedBy,
    CreatedDate: row.createdAt.toISOString(),
    SentDate: row.sentAt.toISOString(),
    ExpirationDate: row.expiresAt.toISOString(),
    IsExpired: row.expired,
  };
}

const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The link of the invitation page that accepts the invitation with `token`. */
const invitationLinkOf = (tenant: InvitingTenant, token: string) =>
  `${tenant.baseUrl}${INVITATION_PATH}?token=${token}`;

/** The invitation e-mail: who invited, to what, with which roles, the link and its expiry. */
export function invitationMail(
  tenant: InvitingTenant,
  row: Pick<InvitationRow, 'email' | 'name' | 'roles' | 'invitedBy' | 'expiresAt'>,
  token: string,
): InvitationMail {
  const link = invitationLinkOf(tenant, token);
  const roles = row.roles.map((id) => `- ${roleById(id)?.Description ?? id}`).join('\n');
  const who = row.invitedBy ? `${row.invitedBy} invited you` : 'You are invited';
  return {
    tenantId: tenant.id,
    recipient: row.email,
    subject: `Your invitation to the ${tenant.name} back office`,
    body: [
      `Hello${row.name ? ` ${row.name}` : ''},`,
      '',
      `${who} to the web console of "${tenant.name}" (${tenant.baseUrl}/console/), with these roles:`,
      roles,
      '',
      'To accept, open this link, choose your username and password, then sign in:',
      link,
      '',
      `The link works once, until ${utc(row.expiresAt)}. If you did not expect this invitation, ignore this message: nothing happens without you.`,
    ].join('\n'),
  };
}

export class MemberInvitations {
  private readonly db: DatabaseHandle;
  private readonly members: MemberService;
  private readonly needs: InvitationNeeds;
  private readonly ttlSeconds: number;

  constructor(
    db: DatabaseHandle,
    members: MemberService,
    needs: InvitationNeeds,
    ttlSeconds = INVITATION_TTL_SECONDS,
  ) {
    this.db = db;
    this.members = members;
    this.needs = needs;
    this.ttlSeconds = ttlSeconds;
  }

  /**
   * Records the invitation's e-mail with a new link and answers the invitation with that link
   * (this once: only its hash is kept) and whether the e-mail leaves the server.
   */
  private async send(
    sql: RawSql,
    tenant: InvitingTenant,
    row: InvitationRow,
    token: string,
  ): Promise<SentInvitation> {
    await this.needs.notify(sql, invitationMail(tenant, row, token));
    return {
      ...toInvitation(row),
      InvitationLink: invitationLinkOf(tenant, token),
      EmailSent: this.needs.mailSends(),
    };
  }

  async list(tenantId: number, paging: Paging): Promise<Page<Invitation>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<InvitationRow>(
        `select ${COLUMNS} from member_invitations where tenant_id = $1
          order by created_seq offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from member_invitations where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows.map(toInvitation), TotalCount: total?.n ?? 0 };
  }

  async get(tenantId: number, id: string): Promise<Invitation> {
    const [row] = await this.db.query<InvitationRow>(
      `select ${COLUMNS} from member_invitations where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw invitationNotFound(id);
    return toInvitation(row);
  }

  /**
   * Records the invitation and its e-mail in one transaction. `invitedBy` is the inviting
   * member's id (undefined for an app's token).
   */
  async invite(
    tenant: InvitingTenant,
    body: InvitationCreateBody,
    invitedBy: string | undefined,
  ): Promise<SentInvitation> {
    const email = body.Email.trim().toLowerCase();
    const roles = roleIds(body.Roles);
    const name = body.Name?.trim() || null;
    const token = randomBytes(32).toString('base64url');
    return translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await sql.query(MEMBERS_TURN, [String(tenant.id)]);
          if (await this.members.hasAddress(sql, tenant.id, email)) throw alreadyMember(email);
          const [open] = await sql.query<{ expired: boolean }>(
            `select expires_at <= now() as expired from member_invitations
              where tenant_id = $1 and email = $2 for update`,
            [tenant.id, email],
          );
          if (open && !open.expired) throw duplicateInvitation(email);
          // An expired invitation to the address is replaced by the new one.
          if (open)
            await sql.query('delete from member_invitations where tenant_id = $1 and email = $2', [
              tenant.id,
              email,
            ]);
          const [inviter] = invitedBy
            ? await sql.query<{ username: string }>(
                'select username from members where tenant_id = $1 and id = $2::uuid',
                [tenant.id, invitedBy],
              )
            : [];
          const [row] = await sql.query<InvitationRow>(
            `with made as (
               insert into member_invitations
                 (tenant_id, id, email, name, roles, token_hash, invited_by, expires_at)
               values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
               returning *)
             select ${COLUMNS} from made`,
            [
              tenant.id,
              randomUUID(),
              email,
              name,
              roles,
              hashToken(token),
              inviter?.username ?? null,
              this.ttlSeconds,
            ],
          );
          return this.send(sql, tenant, row!, token);
        }),
      { unique: () => duplicateInvitation(email) },
    );
  }

  /**
   * Sends the invitation again with a new link (the old one stops working) that expires
   * INVITATION_TTL_SECONDS from now, whether or not the old one had expired.
   */
  async resend(tenant: InvitingTenant, id: string): Promise<SentInvitation> {
    const token = randomBytes(32).toString('base64url');
    return this.db.rawTransaction(async (sql) => {
      await sql.query(MEMBERS_TURN, [String(tenant.id)]);
      const [current] = await sql.query<{ email: string }>(
        'select email from member_invitations where tenant_id = $1 and id = $2 for update',
        [tenant.id, id],
      );
      if (!current) throw invitationNotFound(id);
      if (await this.members.hasAddress(sql, tenant.id, current.email))
        throw alreadyMember(current.email);
      const [row] = await sql.query<InvitationRow>(
        `with changed as (
           update member_invitations
              set token_hash = $3, sent_at = now(), expires_at = now() + make_interval(secs => $4)
            where tenant_id = $1 and id = $2
            returning *)
         select ${COLUMNS} from changed`,
        [tenant.id, id, hashToken(token), this.ttlSeconds],
      );
      return this.send(sql, tenant, row!, token);
    });
  }

  /** Revokes an invitation: its link stops working at once. */
  async revoke(tenantId: number, id: string): Promise<void> {
    const deleted = await this.db.query(
      'delete from member_invitations where tenant_id = $1 and id = $2 returning 1',
      [tenantId, id],
    );
    if (deleted.length === 0) throw invitationNotFound(id);
  }

  /** The invitation a link's token opens; refused when unknown (used, revoked) or expired. */
  open(tenantId: number, token: string): Promise<OpenInvitation> {
    return this.openWith(this.db, tenantId, token);
  }

  private async openWith(sql: RawSql, tenantId: number, token: string): Promise<OpenInvitation> {
    const [row] = await sql.query<InvitationRow>(
      `select ${COLUMNS} from member_invitations where tenant_id = $1 and token_hash = $2`,
      [tenantId, hashToken(token)],
    );
    if (!row) throw invitationLinkInvalid();
    if (row.expired) throw invitationLinkExpired(row.expiresAt);
    const { email, name, roles, invitedBy, expiresAt } = row;
    return { email, name, roles, invitedBy, expiresAt };
  }

  /**
   * Makes the member the invitation was for, with the username, name and password the invitee
   * chose (the password policy applies), and spends the invitation.
   */
  async accept(tenantId: number, token: string, chosen: Acceptance): Promise<Member> {
    await this.open(tenantId, token);
    const username = chosen.username.trim().toLowerCase();
    if (!USERNAME.test(username)) throw invalidUsername();
    const name = chosen.name.trim();
    if (name === '' || [...name].length > 256) throw blankName();
    const passwordHash = await hashPassword(checkedPassword(chosen.password, username));
    let email = '';
    return translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await sql.query(MEMBERS_TURN, [String(tenantId)]);
          const [spent] = await sql.query<{ email: string; roles: string[] }>(
            `delete from member_invitations
              where tenant_id = $1 and token_hash = $2 and expires_at > now()
              returning email, roles`,
            [tenantId, hashToken(token)],
          );
          // Used, revoked or expired while the password was being hashed: say which.
          if (!spent) {
            await this.openWith(sql, tenantId, token);
            throw invitationLinkInvalid();
          }
          email = spent.email;
          if (await this.members.hasAddress(sql, tenantId, email)) throw alreadyMember(email);
          return this.members.createInvited(sql, tenantId, {
            username,
            name,
            passwordHash,
            roles: spent.roles,
            email,
          });
        }),
      { unique: () => alreadyMember(email) },
    );
  }

  /** Drops invitations expired more than EXPIRED_INVITATION_RETENTION_DAYS ago; answers how many. */
  async prune(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `with gone as (delete from member_invitations
          where expires_at < now() - make_interval(days => ${EXPIRED_INVITATION_RETENTION_DAYS})
          returning 1)
       select count(*)::int as n from gone`,
    );
    return row!.n;
  }
}
