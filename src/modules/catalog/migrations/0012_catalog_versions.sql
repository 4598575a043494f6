-- Every catalog resource has a version behind its ETag (contract §4, concurrency): brands, tags
-- and price types get one like categories and attribute types have.
alter table brands add column version integer not null default 1;
alter table tags add column version integer not null default 1;
alter table price_types add column version integer not null default 1;

-- An item's version and DateModified move whenever its document changes, also when the change
-- comes from elsewhere: a tag mapped or unmapped, or the rename of a tag, price type or attribute
-- type it shows. (Before, only the document was rebuilt, so an ETag stayed the same while the
-- item's JSON changed.)
create or replace function items_refresh_from_new() returns trigger language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct tenant_id, item_id from changed) c
   where i.tenant_id = c.tenant_id and i.id = c.item_id;
  return null;
end $$;

create or replace function items_refresh_for_tag() returns trigger language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now() from item_tags m
   where m.tenant_id = new.tenant_id and m.tag_id = new.id and i.tenant_id = m.tenant_id and i.id = m.item_id;
  return null;
end $$;

create or replace function items_refresh_for_price_type() returns trigger language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_prices where tenant_id = new.tenant_id and price_type_id = new.id) p
   where i.tenant_id = new.tenant_id and i.id = p.item_id;
  return null;
end $$;

create or replace function items_refresh_for_attribute_type() returns trigger language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now() from item_attributes a
   where a.tenant_id = new.tenant_id and a.type_id = new.id and i.tenant_id = a.tenant_id and i.id = a.item_id;
  return null;
end $$;

-- Renames that change nothing shown leave the items alone.
drop trigger tags_shown_in_items on tags;
create trigger tags_shown_in_items after update of name, description on tags
  for each row when (old.name is distinct from new.name or old.description is distinct from new.description)
  execute function items_refresh_for_tag();
drop trigger price_types_shown_in_items on price_types;
create trigger price_types_shown_in_items after update of symbol on price_types
  for each row when (old.symbol is distinct from new.symbol) execute function items_refresh_for_price_type();
drop trigger attribute_types_shown_in_items on dynamic_attribute_types;
create trigger attribute_types_shown_in_items after update of description on dynamic_attribute_types
  for each row when (old.description is distinct from new.description) execute function items_refresh_for_attribute_type();

-- A category's metadata is part of what its GET shows, so a change to it moves the version.
create function categories_touch_from_metadata() returns trigger language plpgsql as $$
begin
  update categories c set version = c.version + 1
    from (select distinct tenant_id, category_id from changed) m
   where c.tenant_id = m.tenant_id and c.id = m.category_id;
  return null;
end $$;
create trigger category_metadata_inserted after insert on category_metadata referencing new table as changed
  for each statement execute function categories_touch_from_metadata();
create trigger category_metadata_updated after update on category_metadata referencing new table as changed
  for each statement execute function categories_touch_from_metadata();
create trigger category_metadata_deleted after delete on category_metadata referencing old table as changed
  for each statement execute function categories_touch_from_metadata();
