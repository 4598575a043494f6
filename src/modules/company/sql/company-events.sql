-- The company's events (the feed: src/db/sql/020-event-feed.sql): stores, physical devices and
-- logical devices, each with its data as the API shows it.

create or replace function events_of_stores() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Name', name, 'Description', description, 'Address', address,
                     'Location', json_build_object('Longitude', longitude, 'Latitude', latitude))::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('store', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function events_of_physical_devices() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id),
         array_agg(json_build_object('DeviceId', id, 'Description', description, 'StoreId', store_id)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('physical_device', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function events_of_logical_devices() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id),
         array_agg(json_build_object('DeviceId', id, 'PhysicalDeviceId', physical_device_id,
                     'Description', description, 'DeviceTypeId', device_type_id,
                     'ExpirationDate', to_char(expiration_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'Metadata', metadata)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('logical_device', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_events_triggers(t.tbl, t.fn) from (values
  ('stores', 'events_of_stores'),
  ('physical_devices', 'events_of_physical_devices'),
  ('logical_devices', 'events_of_logical_devices')) as t (tbl, fn);
