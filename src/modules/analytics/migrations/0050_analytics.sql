-- Analytics logs (contract §5.6): one append-only table of every counter's records, partitioned
-- by month on created_at. The DEFAULT partition takes any row whose month has no partition yet,
-- so an insert never fails; the daily job creates the coming months ahead and moves rows out of
-- the default partition (analytics-partitions.ts). Omni shares are stored under their four
-- direction counters only; OmniShare reads all four.
create table analytics_logs (
  tenant_id integer not null references tenants (id) on delete cascade,
  -- The counter's number in the v4 enumeration (reference §9.2).
  counter smallint not null,
  created_at timestamptz not null,
  id bigserial not null,
  -- Filter columns taken out of the record at ingestion (itemId, storeId, physicalDeviceId).
  item_id integer,
  store_id integer,
  physical_device_id text,
  -- The record's fields (PascalCase, as ingested and stamped), without CreatedDate.
  record jsonb not null,
  primary key (tenant_id, counter, created_at, id)
) partition by range (created_at);

create table analytics_logs_default partition of analytics_logs default;

-- Per-tenant settings: the time zone that OADates and summaries are read in.
create table analytics_settings (
  tenant_id integer not null references tenants (id) on delete cascade,
  time_zone text not null default 'UTC',
  version integer not null default 1,
  primary key (tenant_id)
);

-- Per-tenant trending action weights; a tenant without a row uses the defaults.
create table analytics_trending_weights (
  tenant_id integer not null references tenants (id) on delete cascade,
  weights jsonb not null,
  version integer not null default 1,
  primary key (tenant_id)
);

-- The secret that signs continuation tokens, shared by every instance (global, one row).
create table analytics_secrets (
  id smallint primary key check (id = 1),
  secret bytea not null
);
insert into analytics_secrets (id, secret)
values (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
