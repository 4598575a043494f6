-- The event feed's code (its table: src/db/migrations/0100_event_feed.sql, positions: 0281).
-- Each module's tables record their events through record_events from trigger functions of
-- their own; the events module reads the feed and runs the sequencer.
--
-- Written to run where Citus runs it: a trigger runs on the worker that holds the changed shard,
-- so these functions take plain values and arrays (never a table's row type, which a shard does
-- not share), read a transition table only into variables, and write each tenant's rows in a
-- statement of their own, whose `tenant_id = …` routes it to that tenant's shards.

-- A transaction records one event per resource: its type stays created unless deleted, and
-- deleted wins.
create or replace function event_type_merge(earlier text, later text) returns text
language sql immutable as $$
  select case when later like '%.deleted' then later when earlier like '%.created' then earlier else later end
$$;

-- The key of the calling transaction's events (kept in the events' tx_id column): random, drawn
-- once per transaction. Not the transaction id, which comes round again after a standby is
-- promoted or a shard moves to another node: a later change would then be folded into an event
-- an earlier transaction of the same id recorded, and already delivered, and its webhook lost.
create or replace function event_transaction_key() returns bigint
language plpgsql volatile as $$
declare
  v_key text := current_setting('omni.event_transaction_key', true);
begin
  if v_key is null or v_key = '' then
    v_key := (('x' || left(replace(gen_random_uuid()::text, '-', ''), 16))::bit(64)::bigint)::text;
    perform set_config('omni.event_transaction_key', v_key, true);
  end if;
  return v_key::bigint;
end $$;

-- The events of the rows a statement changed, one per (tenant, resource id) — the callers pass
-- each resource once. The action is the statement's (created, updated, deleted) unless
-- `p_action` names one. Rows of a tenant being deleted (the cascade from tenants) are left out.
create or replace function record_events(p_resource text, p_op text, p_action text,
    p_tenants integer[], p_ids text[], p_data text[]) returns void
language plpgsql as $$
declare
  v_type text := p_resource || '.' || coalesce(p_action,
    case p_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
  v_tenant integer;
  v_recorded boolean := false;
  -- Once per call: in the select list below it would run once per row (it is volatile).
  v_key bigint := event_transaction_key();
  v_id bigint;
  v_range bigint;
  v_actor text := change_actor();
begin
  -- Every change the feed records is a change of the history too (025-change-history.sql).
  perform record_changes(p_resource, p_op, p_action, p_tenants, p_ids, p_data);
  for v_tenant in select distinct t from unnest(p_tenants) as t loop
    continue when not exists (select 1 from tenants where id = v_tenant);
    insert into events as e (tenant_id, tx_id, resource, resource_id, type, data, actor)
      select v_tenant, v_key, p_resource, r.id, v_type, r.data, v_actor
        from unnest(p_tenants, p_ids, p_data) as r (tenant_id, id, data)
       where r.tenant_id = v_tenant
    on conflict (tenant_id, tx_id, resource, resource_id) do update
      set data = excluded.data, type = event_type_merge(e.type, excluded.type);
    continue when not found;
    v_recorded := true;
    -- The sequencer places waiting events in id order, and ids come from the sequence of the
    -- node that records them: on Citus a worker's own range (group g draws from g × 2^48), so
    -- after the tenant's shards moved to a worker of a lower group its next events have lower
    -- ids than those recorded before the move. Were both still waiting together, a resource's
    -- later change would be placed, and delivered, before its earlier one. So the first
    -- transaction that records an event on the new node places the waiting events recorded
    -- elsewhere (all committed: a move waits for the old node's writes) before it commits, and
    -- the events waiting for a position are only ever of one node.
    select id into v_id from events where tenant_id = v_tenant and tx_id = v_key limit 1;
    v_range := (v_id >> 48) << 48;
    if exists (select 1 from events where tenant_id = v_tenant and position is null
                 and (id < v_range or id >= v_range + (1::bigint << 48))) then
      perform event_feed_place(v_tenant, 2147483647, v_key);
    end if;
  end loop;
  -- The webhook dispatchers wait on this channel (src/modules/events/dispatcher-wakeups.ts).
  if v_recorded then
    perform notify_after_commit('event_feed');
  end if;
end $$;

-- The three statement triggers (insert, update, delete) through which a table records its events
-- with `p_function`, a trigger function that reads the statement's rows as `changed`; each made
-- again only when it changed (define_trigger: 005-trigger-definitions.sql).
create or replace function record_events_triggers(p_table text, p_function text) returns void
language sql as $$
  select define_statement_triggers(p_table, p_function, 'events')
$$;

-- Gives the tenant's committed events that have no position yet the next positions, in the
-- order they were recorded (at most p_limit of them), holding the tenant's head row meanwhile so
-- that two sequencers never give out the same positions. Answers how many it placed.
create or replace function event_feed_sequence(p_tenant integer, p_limit integer) returns integer
language plpgsql as $$
begin
  return event_feed_place(p_tenant, p_limit, null);
end $$;

-- event_feed_sequence's work, leaving out the events of the transaction keyed p_except_tx (the
-- caller's own, not committed yet: record_events places other nodes' events before its own).
create or replace function event_feed_place(p_tenant integer, p_limit integer, p_except_tx bigint)
    returns integer
language plpgsql as $$
declare
  v_head bigint;
  v_placed integer;
begin
  insert into event_feed_heads as h (tenant_id, position) values (p_tenant, 0)
    on conflict (tenant_id) do nothing;
  select position into v_head from event_feed_heads where tenant_id = p_tenant for update;
  update events e set position = v_head + n.n
    from (select id, row_number() over (order by id) as n
            from events where tenant_id = p_tenant and position is null
             and tx_id is distinct from p_except_tx
           order by id limit p_limit) n
   where e.tenant_id = p_tenant and e.id = n.id;
  get diagnostics v_placed = row_count;
  if v_placed > 0 then
    update event_feed_heads set position = v_head + v_placed where tenant_id = p_tenant;
  end if;
  return v_placed;
end $$;
