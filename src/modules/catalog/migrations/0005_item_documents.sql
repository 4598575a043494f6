-- Each item keeps its wire-shape JSON (prices, attributes and tags included) in `document`,
-- rebuilt by the database in the same transaction as any change it depends on: reading an item
-- or a page of items is then a primary-key lookup, not 50 × 3 subqueries.

alter table items add column document text;

create function item_document(i items) returns text language sql stable as $$
  select json_build_object(
    'Id', i.id, 'SKU', i.sku, 'RFID', i.rfid, 'UUID', i.uuid, 'Name', i.name, 'Title', i.title, 'Model', i.model,
    'ShortDescription', i.short_description, 'LongDescription', i.long_description, 'ItemStatusId', i.item_status_id,
    'CategoryId', i.category_id, 'BrandId', i.brand_id, 'DefaultItemId', i.default_item_id, 'InStock', i.in_stock,
    'PublicWebLink', i.public_web_link, 'Rating', i.rating::float8, 'LikeCount', i.like_count,
    'Prices', coalesce((select json_agg(json_build_object('PriceId', p.id, 'ItemId', p.item_id,
                 'NormalPrice', p.normal_price::float8, 'DiscountPrice', p.discount_price::float8,
                 'PriceTypeId', p.price_type_id, 'PriceTypeSymbol', t.symbol) order by p.price_type_id)
            from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
           where p.tenant_id = i.tenant_id and p.item_id = i.id), '[]'::json),
    'DynamicAttributes', coalesce((select json_agg(json_build_object('TypeId', a.type_id, 'TypeValueId', a.value_id,
                 'Value', v.value, 'TypeName', d.description) order by a.type_id)
            from item_attributes a
            join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
            join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
           where a.tenant_id = i.tenant_id and a.item_id = i.id), '[]'::json),
    'Tags', coalesce((select json_agg(json_build_object('Id', g.id, 'Name', g.name, 'Description', g.description) order by g.id)
            from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
           where m.tenant_id = i.tenant_id and m.item_id = i.id), '[]'::json),
    'DateAdded', to_char(i.date_added at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'DateModified', to_char(i.date_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

-- The item's own row: rebuilt whenever it is written (a child table's trigger touches it too).
create function items_build_document() returns trigger language plpgsql as $$
begin
  new.document := item_document(new);
  return new;
end $$;
create trigger items_document before insert or update on items for each row execute function items_build_document();

-- Rows of a child table changed: rebuild the documents of the items they belong to.
create function items_refresh_from_new() returns trigger language plpgsql as $$
begin
  update items i set document = null from (select distinct tenant_id, item_id from changed) c
   where i.tenant_id = c.tenant_id and i.id = c.item_id;
  return null;
end $$;

create trigger item_prices_inserted after insert on item_prices referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_prices_updated after update on item_prices referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_prices_deleted after delete on item_prices referencing old table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_attributes_inserted after insert on item_attributes referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_attributes_updated after update on item_attributes referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_attributes_deleted after delete on item_attributes referencing old table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_tags_inserted after insert on item_tags referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_tags_updated after update on item_tags referencing new table as changed
  for each statement execute function items_refresh_from_new();
create trigger item_tags_deleted after delete on item_tags referencing old table as changed
  for each statement execute function items_refresh_from_new();

-- Names that items show (a tag's name, a price type's symbol, an attribute type's name) changed.
create function items_refresh_for_tag() returns trigger language plpgsql as $$
begin
  update items i set document = null from item_tags m
   where m.tenant_id = new.tenant_id and m.tag_id = new.id and i.tenant_id = m.tenant_id and i.id = m.item_id;
  return null;
end $$;
create trigger tags_shown_in_items after update of name, description on tags
  for each row execute function items_refresh_for_tag();

create function items_refresh_for_price_type() returns trigger language plpgsql as $$
begin
  update items i set document = null from (select distinct item_id from item_prices
     where tenant_id = new.tenant_id and price_type_id = new.id) p
   where i.tenant_id = new.tenant_id and i.id = p.item_id;
  return null;
end $$;
create trigger price_types_shown_in_items after update of symbol on price_types
  for each row execute function items_refresh_for_price_type();

create function items_refresh_for_attribute_type() returns trigger language plpgsql as $$
begin
  update items i set document = null from item_attributes a
   where a.tenant_id = new.tenant_id and a.type_id = new.id and i.tenant_id = a.tenant_id and i.id = a.item_id;
  return null;
end $$;
create trigger attribute_types_shown_in_items after update of description on dynamic_attribute_types
  for each row execute function items_refresh_for_attribute_type();

update items set document = null;
alter table items alter column document set not null;
