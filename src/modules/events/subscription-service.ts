// Webhook subscriptions of a tenant (/management/webhooks): where deliveries go, which events,
// the signing secret (shown on create and rotation only) and whether it is enabled.
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { Page, Paging } from '../../db/queries/paged-list.ts';
import type { Versioned } from '../../db/queries/row-version.ts';
import { lockForWrite } from '../../db/queries/row-version.ts';
import type { VersionCheck } from '../../domain/version-check.ts';
import { invalidField } from '../../domain/domain-error.ts';
import type { DeliveryPolicy } from './delivery-policy.ts';
import { subscriptionNotFound, unknownEventType } from './events-errors.ts';
import { isEventTypePattern } from './event-types.ts';
import { feedHead } from './event-feed.ts';
import type { Subscription, SubscriptionBody } from './events-schemas.ts';
import { newSigningSecret } from './webhook-sender.ts';
import { checkWebhookUrl } from './webhook-url.ts';

/** A cursor's id after every event of its position (those kept from before share theirs). */
const AFTER_EVERY_ID = '9223372036854775807';

interface SubscriptionRow {
  id: number;
  url: string;
  eventTypes: string[];
  description: string | null;
  ownerEmail: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  secret: string;
}

const COLUMNS = `id, url, event_types as "eventTypes", description, owner_email as "ownerEmail", enabled,
  disabled_reason as "disabledReason", failing_since as "failingSince",
  previous_secret_expires_at as "previousSecretExpiresAt", created_at as "createdAt",
  updated_at as "updatedAt", version, secret`;

export interface SubscriptionOptions {
  allowedHosts: readonly string[];
  policy: DeliveryPolicy;
  clock: () => Date;
}

export class SubscriptionService {
  private readonly db: DatabaseHandle;
  private readonly options: SubscriptionOptions;

  constructor(db: DatabaseHandle, options: SubscriptionOptions) {
    this.db = db;
    this.options = options;
  }

  private toWire(row: SubscriptionRow, showSecret = false): Subscription {
    const now = this.options.clock();
    const previousValid = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
    return {
      Id: row.id,
      Url: row.url,
      EventTypes: row.eventTypes,
      Description: row.description,
      OwnerEmail: row.ownerEmail,
      Enabled: row.enabled,
      DisabledReason: row.disabledReason,
      FailingSince: row.failingSince?.toISOString() ?? null,
      Secret: showSecret ? row.secret : null,
      PreviousSecretExpiresDate: previousValid ? row.previousSecretExpiresAt!.toISOString() : null,
      CreatedDate: row.createdAt.toISOString(),
      ModifiedDate: row.updatedAt.toISOString(),
    };
  }

  private checked(body: SubscriptionBody) {
    for (const pattern of body.EventTypes)
      if (!isEventTypePattern(pattern)) throw unknownEventType(pattern);
    return {
      url: checkWebhookUrl(body.Url, this.options.allowedHosts),
      eventTypes: body.EventTypes,
      description: body.Description ?? null,
      ownerEmail: body.OwnerEmail ?? null,
      enabled: body.Enabled ?? true,
    };
  }

  async create(tenantId: number, body: SubscriptionBody): Promise<Versioned<Subscription>> {
    const s = this.checked(body);
    const now = this.options.clock();
    // The cursor starts after every event placed so far: the subscription gets the events from
    // now on (those committed meanwhile included).
    const head = await feedHead(this.db, tenantId);
    const [row] = await this.db.query<SubscriptionRow>(
      `insert into webhook_subscriptions
         (tenant_id, url, event_types, description, owner_email, enabled, secret, cursor_position, cursor_id,
          created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, ${AFTER_EVERY_ID}, $9, $9)
       returning ${COLUMNS}`,
      [
        tenantId,
        s.url,
        s.eventTypes,
        s.description,
        s.ownerEmail,
        s.enabled,
        newSigningSecret(),
        head.toString(),
        now,
      ],
    );
    return { value: this.toWire(row!, true), version: row!.version };
  }

  async get(tenantId: number, id: number): Promise<Versioned<Subscription>> {
    const row = await this.row(this.db, tenantId, id);
    if (!row) throw subscriptionNotFound(id);
    return { value: this.toWire(row), version: row.version };
  }

  private async row(sql: RawSql, tenantId: number, id: number) {
    const [row] = await sql.query<SubscriptionRow>(
      `select ${COLUMNS} from webhook_subscriptions where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    return row;
  }

  /** Throws 404 unless the tenant has this subscription. */
  async require(tenantId: number, id: number): Promise<void> {
    await this.get(tenantId, id);
  }

  async list(tenantId: number, paging: Paging): Promise<Page<Subscription>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<SubscriptionRow>(
        `select ${COLUMNS} from webhook_subscriptions where tenant_id = $1 order by id offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>(
        'select count(*)::int as n from webhook_subscriptions where tenant_id = $1',
        [tenantId],
      ),
    ]);
    return { Results: rows.map((row) => this.toWire(row)), TotalCount: total?.n ?? 0 };
  }

  async update(
    tenantId: number,
    id: number,
    body: SubscriptionBody,
    checkVersion: VersionCheck,
  ): Promise<Versioned<Subscription>> {
    if (body.Id !== undefined && body.Id !== id)
      throw invalidField('Id', 'must match the id in the path');
    const s = this.checked(body);
    const now = this.options.clock();
    const row = await this.db.rawTransaction(async (sql) => {
      await lockForWrite(sql, 'webhook_subscriptions', tenantId, id, checkVersion, () =>
        subscriptionNotFound(id),
      );
      // Enabling a disabled subscription starts it afresh: from now on, no failures.
      const head = await feedHead(sql, tenantId);
      const [updated] = await sql.query<SubscriptionRow>(
        `update webhook_subscriptions set url = $3, event_types = $4, description = $5, owner_email = $6,
           cursor_position = case when $7 and not enabled then $9 else cursor_position end,
           cursor_id = case when $7 and not enabled then ${AFTER_EVERY_ID} else cursor_id end,
           failing_since = case when $7 and enabled then failing_since end,
           disabled_reason = case when $7 then null else coalesce(disabled_reason, 'Disabled by a client.') end,
           enabled = $7, version = version + 1, updated_at = $8
         where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
        [
          tenantId,
          id,
          s.url,
          s.eventTypes,
          s.description,
          s.ownerEmail,
          s.enabled,
          now,
          head.toString(),
        ],
      );
      return updated!;
    });
    return { value: this.toWire(row), version: row.version };
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await this.db.rawTransaction(async (sql) => {
      await lockForWrite(sql, 'webhook_subscriptions', tenantId, id, checkVersion, () =>
        subscriptionNotFound(id),
      );
      await sql.query('delete from webhook_subscriptions where tenant_id = $1 and id = $2', [
        tenantId,
        id,
      ]);
    });
  }

  /** A new secret; the one it replaces keeps signing (next to it) for policy.previousSecretMs. */
  async rotateSecret(tenantId: number, id: number): Promise<Versioned<Subscription>> {
    const now = this.options.clock();
    const [row] = await this.db.query<SubscriptionRow>(
      `update webhook_subscriptions set previous_secret = secret, previous_secret_expires_at = $4,
         secret = $3, version = version + 1, updated_at = $5
       where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
      [
        tenantId,
        id,
        newSigningSecret(),
        new Date(now.getTime() + this.options.policy.previousSecretMs),
        now,
      ],
    );
    if (!row) throw subscriptionNotFound(id);
    return { value: this.toWire(row, true), version: row.version };
  }
}
