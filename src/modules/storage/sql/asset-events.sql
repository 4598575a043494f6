-- The storage's events (the feed: src/db/sql/020-event-feed.sql): assets, with their data as the
-- API shows it.

create or replace function events_of_assets() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'FileName', file_name, 'MimeType', mime_type, 'Size', size)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('asset', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_events_triggers('assets', 'events_of_assets');
