-- The integration endpoint's events (the feed: src/db/sql/020-event-feed.sql): created (in status
-- 1), each change of its status, its removal.

-- An endpoint's data, from its columns.
drop function if exists endpoint_data(integration_endpoints);
drop function if exists endpoint_data(anyelement);
create or replace function endpoint_data(p_service_name text, p_status smallint, p_tier smallint,
    p_admin_mail text, p_created_at timestamptz) returns text
language sql stable as $$
  select json_build_object('ServiceName', p_service_name, 'Status', p_status, 'ServiceTier', p_tier,
    'AdminMail', p_admin_mail,
    'CreationDate', to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

create or replace function events_of_endpoint_rows() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(service_name), array_agg(endpoint_data(service_name, status, service_tier, admin_mail, created_at))
    into v_tenants, v_ids, v_data from changed;
  perform record_events('integration_endpoint', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function events_of_endpoint_status() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(n.tenant_id), array_agg(n.service_name), array_agg(endpoint_data(n.service_name, n.status, n.service_tier, n.admin_mail, n.created_at))
    into v_tenants, v_ids, v_data
    from changed n join before_rows o on o.tenant_id = n.tenant_id
   where o.status is distinct from n.status;
  perform record_events('integration_endpoint', tg_op, 'status_changed', v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace trigger integration_endpoints_events_inserted after insert on integration_endpoints
  referencing new table as changed for each statement execute function events_of_endpoint_rows();
create or replace trigger integration_endpoints_events_updated after update on integration_endpoints
  referencing old table as before_rows new table as changed for each statement execute function events_of_endpoint_status();
create or replace trigger integration_endpoints_events_deleted after delete on integration_endpoints
  referencing old table as changed for each statement execute function events_of_endpoint_rows();
