-- The catalog's events (the feed: src/db/sql/020-event-feed.sql): items, brands, categories and
-- tags, and their asset relations, which change their item, brand or category. One statement
-- trigger per operation, whose function reads the statement's rows (its transition table
-- `changed`) into arrays and records them.
--
-- Written to run where Citus runs it (src/db/sql/020-event-feed.sql says how): a function that
-- reads a table is never called inside a statement over another (Citus runs no query from within
-- a query on a shard), so a category's metadata is read by a statement of its own.

-- The data of a brand or a category (an item's is its document), from its columns.
drop function if exists brand_data(brands);
drop function if exists brand_data(anyelement);
-- Ids were 32-bit until migration 0302: these functions took integer ids.
drop function if exists brand_data(integer, text);
create or replace function brand_data(p_id bigint, p_name text) returns text
language sql immutable as $$
  select json_build_object('Id', p_id, 'Name', p_name)::text
$$;

drop function if exists category_data(categories);
drop function if exists category_data(anyelement, json);
drop function if exists category_data(integer, text, text, text, integer, json);
create or replace function category_data(p_id bigint, p_name text, p_short_description text,
    p_long_description text, p_parent_id bigint, p_metadata json) returns text
language sql immutable as $$
  select json_build_object('Id', p_id, 'Name', p_name, 'ShortDescription', p_short_description,
    'LongDescription', p_long_description, 'ParentCategoryId', p_parent_id,
    'CategoryMetadata', coalesce(p_metadata, '[]'::json))::text
$$;

-- The metadata of some of a tenant's categories, as the category's data shows it.
drop function if exists category_metadata_json(integer, integer[]);
create or replace function category_metadata_json(p_tenant integer, p_categories bigint[],
    out category_ids bigint[], out metadata json[])
language plpgsql stable as $$
begin
  select array_agg(category_id), array_agg(entries) into category_ids, metadata
    from (select category_id, json_agg(json_build_object('Key', key, 'Value', value) order by key) as entries
            from category_metadata where tenant_id = p_tenant and category_id = any(p_categories)
           group by category_id) m;
end $$;

create or replace function events_of_items() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text), array_agg(document) into v_tenants, v_ids, v_data from changed;
  perform record_events('item', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function events_of_item_assets() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_items bigint[];
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_items in select tenant_id, array_agg(distinct item_id) from changed group by tenant_id loop
    select array_agg(tenant_id), array_agg(id::text), array_agg(document) into v_tenants, v_ids, v_data
      from items where tenant_id = v_tenant and id = any(v_items);
    perform record_events('item', tg_op, 'updated', v_tenants, v_ids, v_data);
  end loop;
  return null;
end $$;

create or replace function events_of_brands() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text), array_agg(brand_data(id, name)) into v_tenants, v_ids, v_data
    from changed;
  perform record_events('brand', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function events_of_brand_assets() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_brands bigint[];
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_brands in select tenant_id, array_agg(distinct brand_id) from changed group by tenant_id loop
    select array_agg(b.tenant_id), array_agg(b.id::text), array_agg(brand_data(b.id, b.name)) into v_tenants, v_ids, v_data
      from brands b where b.tenant_id = v_tenant and b.id = any(v_brands);
    perform record_events('brand', tg_op, 'updated', v_tenants, v_ids, v_data);
  end loop;
  return null;
end $$;

-- The categories' events, with the data of the rows as the statement left them (`changed`) and
-- their metadata as it is.
create or replace function events_of_categories() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_categories bigint[];
  v_with bigint[];
  v_metadata json[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_categories in select tenant_id, array_agg(id) from changed group by tenant_id loop
    select category_ids, metadata into v_with, v_metadata from category_metadata_json(v_tenant, v_categories);
    select array_agg(c.id::text), array_agg(category_data(c.id, c.name, c.short_description, c.long_description, c.parent_id, m.entries)) into v_ids, v_data
      from changed c left join unnest(v_with, v_metadata) as m (category_id, entries) on m.category_id = c.id
     where c.tenant_id = v_tenant;
    perform record_events('category', tg_op, null, array_fill(v_tenant, array[coalesce(cardinality(v_ids), 0)]), v_ids, v_data);
  end loop;
  return null;
end $$;

create or replace function events_of_category_assets() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_categories bigint[];
  v_with bigint[];
  v_metadata json[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_categories in select tenant_id, array_agg(distinct category_id) from changed group by tenant_id loop
    select category_ids, metadata into v_with, v_metadata from category_metadata_json(v_tenant, v_categories);
    select array_agg(g.id::text), array_agg(category_data(g.id, g.name, g.short_description, g.long_description, g.parent_id, m.entries)) into v_ids, v_data
      from categories g left join unnest(v_with, v_metadata) as m (category_id, entries) on m.category_id = g.id
     where g.tenant_id = v_tenant and g.id = any(v_categories);
    perform record_events('category', tg_op, 'updated', array_fill(v_tenant, array[coalesce(cardinality(v_ids), 0)]), v_ids, v_data);
  end loop;
  return null;
end $$;

create or replace function events_of_tags() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Name', name, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('tag', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_events_triggers(t.tbl, t.fn) from (values
  ('items', 'events_of_items'),
  ('item_assets', 'events_of_item_assets'),
  ('brands', 'events_of_brands'),
  ('brand_assets', 'events_of_brand_assets'),
  ('categories', 'events_of_categories'),
  ('category_assets', 'events_of_category_assets'),
  ('tags', 'events_of_tags')) as t (tbl, fn);
