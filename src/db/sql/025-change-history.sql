-- The change history's recording (its table: src/db/migrations/0320_change_history.sql).
-- record_events (020-event-feed.sql) records each change here too, and a table that has no
-- events calls record_changes from a trigger function of its own module.
--
-- Written to run where Citus runs it, as the event feed is (020-event-feed.sql): plain values and
-- arrays, each tenant's rows in a statement of its own. The change context reaches a worker as
-- the transaction's SET LOCAL, which Citus propagates (src/db/changes/change-context.ts).

-- Who changes what in the calling transaction, and from where: what the server set
-- (`set local omni.change`), or the system when nothing did (a migration, maintenance).
create or replace function change_context() returns jsonb
language sql stable as $$
  select coalesce(nullif(current_setting('omni.change', true), ''), '{"Actor":{"Type":"System"}}')::jsonb
$$;

-- The actor of the calling transaction's changes, as its entries and events name it.
create or replace function change_actor() returns text
language sql stable as $$
  select coalesce(change_context()->'Actor', '{"Type":"System"}'::jsonb)::text
$$;

-- A transaction's changes of one resource make one entry: created stays created and restored
-- stays restored unless deleted; deleted wins.
create or replace function change_action_merge(earlier text, later text) returns text
language sql immutable as $$
  select case when later = 'deleted' then later when earlier in ('created', 'restored') then earlier else later end
$$;

-- The entries of the rows a statement changed, one per (tenant, resource id) and transaction:
-- the callers pass each resource once, with its state as the API shows it (`p_data`; for a
-- delete, the state it was deleted in). The action is the statement's (created, updated,
-- deleted) unless `p_action` names one; the resource a restore names is `restored`. Rows of a
-- tenant being deleted (the cascade from tenants) are left out.
create or replace function record_changes(p_resource text, p_op text, p_action text,
    p_tenants integer[], p_ids text[], p_data text[]) returns void
language plpgsql as $$
declare
  v_context jsonb := change_context();
  v_actor text := coalesce(v_context->'Actor', '{"Type":"System"}'::jsonb)::text;
  v_actor_key text := lower(coalesce(v_context->'Actor'->>'Type', 'System')) || ':'
    || coalesce(v_context->'Actor'->>'Id', '');
  v_details text := (v_context - 'Actor')::text;
  v_action text := coalesce(p_action,
    case p_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
  v_restore jsonb := v_context->'Restore';
  v_key bigint := event_transaction_key();
  v_tenant integer;
begin
  for v_tenant in select distinct t from unnest(p_tenants) as t loop
    continue when not exists (select 1 from tenants where id = v_tenant);
    insert into change_history as h
        (tenant_id, tx_id, resource, resource_id, action, version, actor, actor_key, context, data)
      select v_tenant, v_key, p_resource, r.id,
             case when v_action <> 'deleted' and v_restore->>'Resource' = p_resource
                       and v_restore->>'ResourceId' = r.id then 'restored' else v_action end,
             -- A creation too: an id a client chooses (a physical device's, the endpoint's) may
             -- come back after a delete, and its versions go on from where they were.
             coalesce((select max(p.version) from change_history p
                        where p.tenant_id = v_tenant and p.resource = p_resource
                          and p.resource_id = r.id), 0) + 1,
             v_actor, v_actor_key, v_details, r.data
        from unnest(p_tenants, p_ids, p_data) as r (tenant_id, id, data)
       where r.tenant_id = v_tenant
    on conflict (tenant_id, tx_id, resource, resource_id, changed_at) do update
      set data = excluded.data, action = change_action_merge(h.action, excluded.action);
  end loop;
end $$;

-- The three statement triggers through which a table without events records its changes, with
-- `p_function`, a trigger function that reads the statement's rows as `changed` (as
-- record_events_triggers, 020-event-feed.sql).
create or replace function record_changes_triggers(p_table text, p_function text) returns void
language sql as $$
  select define_statement_triggers(p_table, p_function, 'changes')
$$;
