-- The change history (src/db/sql/025-change-history.sql) of the company's resources that record
-- no events: device types, with their data as the API shows them.

create or replace function changes_of_device_types() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('device_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_changes_triggers('device_types', 'changes_of_device_types');
