-- The event feed ordered by a position given after commit instead of by the writing
-- transaction's id (docs/design.md, "Events and webhooks"). Readers used to see only events of
-- transactions older than the oldest one running (pg_snapshot_xmin): one long transaction held
-- every webhook back, and on Citus the transaction ids are each worker's own, so a tenant moved
-- to another worker would have its next events sorted before the ones already read.
--
-- Now an event is written with no position; the feed's sequencer (event_feed_sequence, in
-- src/db/sql) gives the committed events of a tenant the next positions, in the order they were
-- recorded, holding the tenant's head row while it does. A position is only ever given to a
-- committed event and always above every position given before, so a reader that follows
-- positions never skips one. tx_id stays: it keeps one event per resource per transaction.
--
-- Events kept from before take their transaction id as their position: the feed's order and
-- every Id given out (evt_<position><id>, formerly evt_<tx><id>) stay as they were, and each
-- tenant's head starts above them.
alter table events add column position bigint;
update events set position = tx_id;
alter table events drop constraint events_pkey;
alter table events add primary key (tenant_id, id);
create index events_feed on events (tenant_id, position, id) where position is not null;
create index events_unplaced on events (tenant_id, id) where position is null;

create table event_feed_heads (
  tenant_id integer primary key references tenants (id) on delete cascade,
  position bigint not null
);
insert into event_feed_heads (tenant_id, position)
  select tenant_id, max(position) from events group by tenant_id;
