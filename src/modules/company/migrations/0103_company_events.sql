-- Events of stores and devices (the feed itself: src/db/migrations/0100_event_feed.sql).

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
      ('events_of_stores', 'store', null,
        'select tenant_id, id::text as resource_id,
                json_build_object(''Id'', id, ''Name'', name, ''Description'', description, ''Address'', address,
                  ''Location'', json_build_object(''Longitude'', longitude, ''Latitude'', latitude))::text as data
           from changed'),
      ('events_of_physical_devices', 'physical_device', null,
        'select tenant_id, id as resource_id,
                json_build_object(''DeviceId'', id, ''Description'', description, ''StoreId'', store_id)::text as data
           from changed'),
      ('events_of_logical_devices', 'logical_device', null,
        'select tenant_id, id as resource_id,
                json_build_object(''DeviceId'', id, ''PhysicalDeviceId'', physical_device_id,
                  ''Description'', description, ''DeviceTypeId'', device_type_id,
                  ''ExpirationDate'', to_char(expiration_date at time zone ''UTC'', ''YYYY-MM-DD"T"HH24:MI:SS.MS"Z"''),
                  ''Metadata'', metadata)::text as data
           from changed')
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

-- Statement triggers (one per operation: a trigger with transition tables takes one event).
do $$
declare
  t record;
begin
  for t in select * from (values
      ('stores', 'events_of_stores'),
      ('physical_devices', 'events_of_physical_devices'),
      ('logical_devices', 'events_of_logical_devices')) as v (tbl, fn)
  loop
    execute format('create trigger %I after insert on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_inserted', t.tbl, t.fn);
    execute format('create trigger %I after update on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_updated', t.tbl, t.fn);
    execute format('create trigger %I after delete on %I referencing old table as changed for each statement execute function %I()',
      t.tbl || '_events_deleted', t.tbl, t.fn);
  end loop;
end $$;
