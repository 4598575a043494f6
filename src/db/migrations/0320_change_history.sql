-- The change history (docs/design.md, "Change history"; docs/api.md, "Change history"): one entry
-- per resource that a transaction changed, written in that transaction by the same statement
-- triggers that record the event feed (record_changes: src/db/sql/025-change-history.sql), so a
-- change without its entry, or an entry without its change, cannot be. Each entry keeps who made
-- the change (the transaction's change context, set by the server: src/db/changes/), when, the
-- resource's version and its state after the change as the API shows it (the state before is
-- the previous version's): what changed is the difference of the two.
--
-- Shared, as the event feed is: every module's triggers write it; the history module reads it,
-- seals it into a hash chain, exports it and prunes it.
--
-- Monthly partitions on changed_at, as the analytics logs have: retention drops or empties whole
-- months, without a long lock. The DEFAULT partition takes any row whose month has none yet.
create table change_history (
  tenant_id integer not null references tenants (id) on delete cascade,
  changed_at timestamptz not null default now(),
  id bigserial not null,
  -- The writing transaction's key (event_transaction_key): one entry per resource and transaction.
  tx_id bigint not null,
  resource text not null,
  resource_id text not null,
  -- created, updated, deleted or restored.
  action text not null,
  -- The resource's version after this change: 1 for its first entry, then one more each change.
  version integer not null,
  -- Who (JSON: Type App, Member, Device, Job or System, Id, Name) and actor_key, its filter key
  -- ("<type>:<id>"); from where and through which operation (JSON: RequestId, ClientAddress,
  -- UserAgent, IdempotencyKey, Operation, RestoredFrom).
  actor text not null,
  actor_key text not null,
  context text not null,
  -- The resource after the change, as the API shows it (JSON); null after a delete.
  data text,
  -- Its place in the tenant's hash chain and its hash, once sealed (the history module's job).
  seq bigint,
  hash text,
  primary key (tenant_id, changed_at, id)
) partition by range (changed_at);

create table change_history_default partition of change_history default;

-- A resource's entries by version; one entry per resource per transaction (changed_at is the
-- transaction's start, the same for each of its statements).
create index change_history_resource on change_history (tenant_id, resource, resource_id, version);
create unique index change_history_once_per_transaction
  on change_history (tenant_id, tx_id, resource, resource_id, changed_at);
create index change_history_actor on change_history (tenant_id, actor_key, changed_at, id);
-- The entries waiting to be sealed.
create index change_history_unsealed on change_history (tenant_id, id) where seq is null;

-- Each tenant's chain: the last sealed entry (its place and hash) and where verification starts
-- after entries were pruned (the last pruned entry's place and hash).
create table change_history_chains (
  tenant_id integer not null references tenants (id) on delete cascade,
  sealed_seq bigint not null default 0,
  sealed_hash text not null default '',
  pruned_seq bigint not null default 0,
  pruned_hash text not null default '',
  primary key (tenant_id)
);

-- Webhooks name who made a change: the same actor as the history's.
alter table events add column actor text;
