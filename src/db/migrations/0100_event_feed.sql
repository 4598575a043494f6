-- The event feed (docs/design.md, "Events and webhooks"): every write of the tables integrators
-- follow records an event in the same transaction, by triggers that the module owning each table
-- declares in its own migrations, whatever wrote it (HTTP, CLI, jobs). A transaction records at
-- most one event per resource: later changes of the same resource in that transaction update its
-- event (its Data is the last state; created stays created unless deleted, deleted wins).
--
-- Shared infrastructure, not the events module's: the catalog, storage, company, oauth and
-- integration triggers all write this table, and the events module reads it (webhooks). Kept
-- here, each of them depends on the shared layer only, never on another module's migrations.
-- (Extensions are not kept here: each module's migration loads those it uses with
-- `create extension if not exists`, so it too needs no other module's migrations.)
--
-- The feed is ordered by (tx_id, id): tx_id is the writing transaction's id, and a reader only
-- sees events of transactions older than the oldest one still running
-- (pg_snapshot_xmin(pg_current_snapshot())). Every event a reader will ever see later then sorts
-- after every event it has seen: no event is skipped by a cursor.
create table events (
  tenant_id integer not null references tenants (id) on delete cascade,
  tx_id bigint not null,
  id bigint generated always as identity,
  resource text not null,
  resource_id text not null,
  type text not null,
  occurred_at timestamptz not null default now(),
  data text not null,
  primary key (tenant_id, tx_id, id)
);
create unique index events_once_per_transaction on events (tenant_id, tx_id, resource, resource_id);
create index events_occurred on events (tenant_id, occurred_at);

create function event_type_merge(earlier text, later text) returns text language sql immutable as $$
  select case when later like '%.deleted' then later when earlier like '%.created' then earlier else later end
$$;
