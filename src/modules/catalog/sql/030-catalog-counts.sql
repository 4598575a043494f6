-- The tenant's item count and its catalog's change counter (catalog_item_counts: the items
-- list's total and its generation, items-list anchors), kept by triggers on items; and a
-- category's version, which its metadata's changes move.
--
-- Written to run where Citus runs it (src/db/sql/020-event-feed.sql says how).

create or replace function count_catalog_items() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_count bigint;
begin
  if tg_op = 'INSERT' then
    for v_tenant, v_count in select tenant_id, count(*) from new_rows group by tenant_id order by 1 loop
      insert into catalog_item_counts as c (tenant_id, items, changes) values (v_tenant, v_count, 1)
        on conflict (tenant_id) do update set items = c.items + excluded.items, changes = c.changes + 1;
    end loop;
  else
    for v_tenant, v_count in select tenant_id, count(*) from old_rows group by tenant_id order by 1 loop
      update catalog_item_counts set items = items - v_count, changes = changes + 1
       where tenant_id = v_tenant;
    end loop;
  end if;
  return null;
end $$;

create or replace trigger items_counted_on_insert after insert on items
  referencing new table as new_rows for each statement execute function count_catalog_items();
create or replace trigger items_counted_on_delete after delete on items
  referencing old table as old_rows for each statement execute function count_catalog_items();

create or replace function categories_touch_from_metadata() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_categories bigint[];
begin
  for v_tenant, v_categories in
    select tenant_id, array_agg(distinct category_id) from changed group by tenant_id
  loop
    update categories set version = version + 1 where tenant_id = v_tenant and id = any(v_categories);
  end loop;
  return null;
end $$;

create or replace trigger category_metadata_inserted after insert on category_metadata
  referencing new table as changed for each statement execute function categories_touch_from_metadata();
create or replace trigger category_metadata_updated after update on category_metadata
  referencing new table as changed for each statement execute function categories_touch_from_metadata();
create or replace trigger category_metadata_deleted after delete on category_metadata
  referencing old table as changed for each statement execute function categories_touch_from_metadata();
