-- Events of the integration endpoint (the feed itself: src/db/migrations/0100_event_feed.sql).

create function endpoint_data(e integration_endpoints) returns text language sql stable as $$
  select json_build_object('ServiceName', e.service_name, 'Status', e.status, 'ServiceTier', e.service_tier,
    'AdminMail', e.admin_mail,
    'CreationDate', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

-- One trigger function per table, made from (function, resource, action, rows): `rows` selects
-- (tenant_id, resource_id, data) from `changed`, the statement's transition table; the action is
-- the statement's (created, updated, deleted) unless given. Each is static SQL, so PL/pgSQL
-- plans it once per connection. Rows of a tenant being deleted (the cascade from tenants) are
-- left out by the join with tenants.
do $do$
declare
  f record;
begin
  for f in select * from (values
      -- The integration endpoint: created (in status 1), its status changes, its removal.
      ('events_of_endpoint_rows', 'integration_endpoint', null,
        'select tenant_id, service_name as resource_id, endpoint_data(changed) as data from changed'),
      ('events_of_endpoint_status', 'integration_endpoint', 'status_changed',
        'select n.tenant_id, n.service_name as resource_id, endpoint_data(n) as data
           from changed n join before_rows o on o.tenant_id = n.tenant_id
          where o.status is distinct from n.status')
    ) as v (fn, resource, action, rows_sql)
  loop
    execute format($f$
      create function %I() returns trigger language plpgsql as $body$
      declare
        action text := coalesce(%L, case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
      begin
        insert into events as e (tenant_id, tx_id, resource, resource_id, type, data)
          select r.tenant_id, pg_current_xact_id()::text::bigint, %L, r.resource_id, %L || '.' || action, r.data
            from (%s) r join tenants t on t.id = r.tenant_id
        on conflict (tenant_id, tx_id, resource, resource_id) do update
          set data = excluded.data, type = event_type_merge(e.type, excluded.type);
        return null;
      end $body$$f$, f.fn, f.action, f.resource, f.resource, f.rows_sql);
  end loop;
end $do$;

create trigger integration_endpoints_events_inserted after insert on integration_endpoints
  referencing new table as changed for each statement execute function events_of_endpoint_rows();
create trigger integration_endpoints_events_updated after update on integration_endpoints
  referencing old table as before_rows new table as changed for each statement execute function events_of_endpoint_status();
create trigger integration_endpoints_events_deleted after delete on integration_endpoints
  referencing old table as changed for each statement execute function events_of_endpoint_rows();
