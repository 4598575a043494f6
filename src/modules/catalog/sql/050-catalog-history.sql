-- The change history (src/db/sql/025-change-history.sql) of the catalog's resources that record
-- no events: dynamic attribute types and price types, each with its data as the API shows it.
-- An attribute type's values are no part of it (the API shows them with the items that use them,
-- whose entries hold them). Written to run where Citus runs it, as the event triggers are
-- (040-catalog-events.sql).

create or replace function changes_of_attribute_types() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('attribute_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function changes_of_price_types() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description, 'PriceTypeSymbol', symbol)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('price_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_changes_triggers(t.tbl, t.fn) from (values
  ('dynamic_attribute_types', 'changes_of_attribute_types'),
  ('price_types', 'changes_of_price_types')) as t (tbl, fn);
