-- Webhooks (the events module): subscriptions to the event feed
-- (src/db/migrations/0100_event_feed.sql) and the deliveries made from it.

-- Webhook subscriptions. The secret signs deliveries, so it is kept (not a hash); after a
-- rotation the previous one signs too until previous_secret_expires_at. cursor_* is the feed
-- position up to which events were turned into deliveries.
create table webhook_subscriptions (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  url text not null,
  event_types text[] not null,
  description text,
  owner_email text,
  enabled boolean not null default true,
  disabled_reason text,
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  cursor_tx bigint not null,
  cursor_id bigint not null default 0,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create index webhook_subscriptions_enabled on webhook_subscriptions (tenant_id, id) where enabled;

-- One delivery of one event to one subscription (a replay is a new delivery): the delivery log.
create table webhook_deliveries (
  tenant_id integer not null,
  id bigint generated always as identity,
  subscription_id integer not null,
  event_tx bigint not null,
  event_id bigint not null,
  event_type text not null,
  resource text not null,
  resource_id text not null,
  occurred_at timestamptz not null,
  state text not null default 'pending' check (state in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  claimed_until timestamptz,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  duration_ms integer,
  last_error text,
  replay_of bigint,
  created_at timestamptz not null,
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references webhook_subscriptions (tenant_id, id) on delete cascade
);
-- Due work across tenants, and the oldest pending delivery of one resource (per-resource order).
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';
create index webhook_deliveries_resource_order on webhook_deliveries
  (tenant_id, subscription_id, resource, resource_id, id) where state = 'pending';
create index webhook_deliveries_log on webhook_deliveries (tenant_id, subscription_id, id);
create index webhook_deliveries_created on webhook_deliveries (created_at);
