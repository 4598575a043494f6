-- Events of the catalog's tables (the feed itself: src/db/migrations/0100_event_feed.sql): items,
-- brands, categories, tags, and their asset relations, which change their item, brand or category.

-- Data of the resources that are not items or apps (those keep their wire-shape document).
create function brand_data(b brands) returns text language sql stable as $$
  select json_build_object('Id', b.id, 'Name', b.name)::text
$$;
create function category_data(c categories) returns text language sql stable as $$
  select json_build_object('Id', c.id, 'Name', c.name, 'ShortDescription', c.short_description,
    'LongDescription', c.long_description, 'ParentCategoryId', c.parent_id,
    'CategoryMetadata', coalesce((select json_agg(json_build_object('Key', m.key, 'Value', m.value) order by m.key)
       from category_metadata m where m.tenant_id = c.tenant_id and m.category_id = c.id), '[]'::json))::text
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
      ('events_of_items', 'item', null,
        'select tenant_id, id::text as resource_id, document as data from changed'),
      -- Asset relations change their item, brand or category.
      ('events_of_item_assets', 'item', 'updated',
        'select distinct i.tenant_id, i.id::text as resource_id, i.document as data
           from changed c join items i on i.tenant_id = c.tenant_id and i.id = c.item_id'),
      ('events_of_brands', 'brand', null,
        'select tenant_id, id::text as resource_id, brand_data(changed) as data from changed'),
      ('events_of_brand_assets', 'brand', 'updated',
        'select distinct b.tenant_id, b.id::text as resource_id, brand_data(b) as data
           from changed c join brands b on b.tenant_id = c.tenant_id and b.id = c.brand_id'),
      ('events_of_categories', 'category', null,
        'select tenant_id, id::text as resource_id, category_data(changed) as data from changed'),
      ('events_of_category_assets', 'category', 'updated',
        'select distinct g.tenant_id, g.id::text as resource_id, category_data(g) as data
           from changed c join categories g on g.tenant_id = c.tenant_id and g.id = c.category_id'),
      ('events_of_tags', 'tag', null,
        'select tenant_id, id::text as resource_id,
                json_build_object(''Id'', id, ''Name'', name, ''Description'', description)::text as data
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
      ('items', 'events_of_items'),
      ('item_assets', 'events_of_item_assets'),
      ('brands', 'events_of_brands'),
      ('brand_assets', 'events_of_brand_assets'),
      ('categories', 'events_of_categories'),
      ('category_assets', 'events_of_category_assets'),
      ('tags', 'events_of_tags')) as v (tbl, fn)
  loop
    execute format('create trigger %I after insert on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_inserted', t.tbl, t.fn);
    execute format('create trigger %I after update on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_updated', t.tbl, t.fn);
    execute format('create trigger %I after delete on %I referencing old table as changed for each statement execute function %I()',
      t.tbl || '_events_deleted', t.tbl, t.fn);
  end loop;
end $$;
