-- Every item keeps its wire document (v4's JSON, compact ASCII) and its facet arrays, built by the
-- database whatever wrote the item or its children: a fetch passes the document through. The
-- catalog import builds a chunk's documents in one statement (imports/import-chunk.ts) with the
-- same JSON functions, so both give the same bytes (docs/design.md, "Catalog import and export").
--
-- Written to run where Citus runs it (src/db/sql/020-event-feed.sql says how): item_document takes
-- the row as anyelement, as the shard's row type is not `items`, and is PL/pgSQL, whose statements
-- Citus plans one by one (it cannot plan a SQL function's parameters).

-- Ids were 32-bit until migration 0302: these functions took integer ids.
drop function if exists item_price_json(integer, integer, numeric, numeric, integer, text);
drop function if exists item_attribute_json(integer, integer, text, text);
drop function if exists item_tag_json(integer, text, text);
drop function if exists item_document_text(integer, text, text, text, text, text, text, text, text, smallint,
  integer, integer, integer, boolean, text, numeric, integer, timestamptz, timestamptz, text, text, text);

create or replace function item_price_json(p_id bigint, p_item_id bigint, p_normal numeric, p_discount numeric,
                                           p_type_id bigint, p_symbol text)
returns text language sql stable parallel safe as $$
  select '{"PriceId":' || json_text(p_id) || ',"ItemId":' || json_text(p_item_id) ||
    ',"NormalPrice":' || json_text(p_normal::float8) || ',"DiscountPrice":' || json_text(p_discount::float8) ||
    ',"PriceTypeId":' || json_text(p_type_id) || ',"PriceTypeSymbol":' || json_text(p_symbol) || '}'
$$;

create or replace function item_attribute_json(p_type_id bigint, p_value_id bigint, p_value text, p_type_name text)
returns text language sql stable parallel safe as $$
  select '{"TypeId":' || json_text(p_type_id) || ',"TypeValueId":' || json_text(p_value_id) ||
    ',"Value":' || json_text(p_value) || ',"TypeName":' || json_text(p_type_name) || '}'
$$;

create or replace function item_tag_json(p_id bigint, p_name text, p_description text)
returns text language sql stable parallel safe as $$
  select '{"Id":' || json_text(p_id) || ',"Name":' || json_text(p_name) || ',"Description":' || json_text(p_description) || '}'
$$;

-- p_prices, p_attributes, p_tags: the children's JSON objects joined by commas ('' for none), in
-- the order item_document gives them (price type, attribute type, tag id).
create or replace function item_document_text(
  p_id bigint, p_sku text, p_rfid text, p_uuid text, p_name text, p_title text, p_model text,
  p_short_description text, p_long_description text, p_item_status_id smallint, p_category_id bigint,
  p_brand_id bigint, p_default_item_id bigint, p_in_stock boolean, p_public_web_link text,
  p_rating numeric, p_like_count integer, p_date_added timestamptz, p_date_modified timestamptz,
  p_prices text, p_attributes text, p_tags text)
returns text language sql stable parallel safe as $$
  select json_ascii(
    '{"Id":' || json_text(p_id) || ',"SKU":' || json_text(p_sku) || ',"RFID":' || json_text(p_rfid) ||
    ',"UUID":' || json_text(p_uuid) || ',"Name":' || json_text(p_name) || ',"Title":' || json_text(p_title) ||
    ',"Model":' || json_text(p_model) || ',"ShortDescription":' || json_text(p_short_description) ||
    ',"LongDescription":' || json_text(p_long_description) || ',"ItemStatusId":' || json_text(p_item_status_id) ||
    ',"CategoryId":' || json_text(p_category_id) || ',"BrandId":' || json_text(p_brand_id) ||
    ',"DefaultItemId":' || json_text(p_default_item_id) || ',"InStock":' || json_text(p_in_stock) ||
    ',"PublicWebLink":' || json_text(p_public_web_link) || ',"Rating":' || json_text(p_rating::float8) ||
    ',"LikeCount":' || json_text(p_like_count) ||
    ',"Prices":[' || p_prices || '],"DynamicAttributes":[' || p_attributes || '],"Tags":[' || p_tags ||
    '],"DateAdded":"' || to_char(p_date_added at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
    '","DateModified":"' || to_char(p_date_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}')
$$;

-- The row type of `items` was this function's argument before it ran on shards.
drop function if exists item_document(items);

-- An item's document from its row (an `items` row, or a shard's) and its children.
create or replace function item_document(i anyelement) returns text
language plpgsql stable as $$
declare
  v_prices text;
  v_attributes text;
  v_tags text;
begin
  select coalesce(string_agg(item_price_json(p.id, p.item_id, p.normal_price, p.discount_price, p.price_type_id, t.symbol),
                             ',' order by p.price_type_id), '')
    into v_prices
    from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
   where p.tenant_id = i.tenant_id and p.item_id = i.id;
  select coalesce(string_agg(item_attribute_json(a.type_id, a.value_id, v.value, d.description), ',' order by a.type_id), '')
    into v_attributes
    from item_attributes a
    join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
    join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
   where a.tenant_id = i.tenant_id and a.item_id = i.id;
  select coalesce(string_agg(item_tag_json(g.id, g.name, g.description), ',' order by g.id), '')
    into v_tags
    from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
   where m.tenant_id = i.tenant_id and m.item_id = i.id;
  return item_document_text(i.id, i.sku, i.rfid, i.uuid, i.name, i.title, i.model, i.short_description,
    i.long_description, i.item_status_id, i.category_id, i.brand_id, i.default_item_id, i.in_stock,
    i.public_web_link, i.rating, i.like_count, i.date_added, i.date_modified, v_prices, v_attributes, v_tags);
end $$;

-- The document and facet arrays of an item written, unless an import gave them with the row
-- (omni.item_documents_given = 'on' in its transaction, on insert only).
create or replace function items_build_document() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' and new.document is not null
     and current_setting('omni.item_documents_given', true) = 'on' then
    return new;
  end if;
  new.document := item_document(new);
  new.facet_tag_ids := array(select tag_id from item_tags
                              where tenant_id = new.tenant_id and item_id = new.id order by tag_id);
  new.facet_value_ids := array(select value_id from item_attributes
                                where tenant_id = new.tenant_id and item_id = new.id order by type_id);
  select coalesce(array_agg(price_type_id order by price_type_id), '{}'),
         coalesce(array_agg(coalesce(discount_price, normal_price)::float8 order by price_type_id), '{}')
    into new.facet_price_type_ids, new.facet_prices
    from item_prices where tenant_id = new.tenant_id and item_id = new.id;
  return new;
end $$;

create or replace trigger items_document before insert or update on items
  for each row execute function items_build_document();

-- A change of an item's prices, attributes or tags is a change of the item: a new version, a new
-- DateModified, its document built again (by items_document, as document is set to null).
create or replace function items_refresh_from_new() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_items bigint[];
begin
  for v_tenant, v_items in
    select tenant_id, array_agg(distinct item_id) from changed group by tenant_id
  loop
    update items set document = null, version = version + 1, date_modified = now()
     where tenant_id = v_tenant and id = any(v_items);
  end loop;
  return null;
end $$;

create or replace trigger item_prices_inserted after insert on item_prices
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_prices_updated after update on item_prices
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_prices_deleted after delete on item_prices
  referencing old table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_attributes_inserted after insert on item_attributes
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_attributes_updated after update on item_attributes
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_attributes_deleted after delete on item_attributes
  referencing old table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_tags_inserted after insert on item_tags
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_tags_updated after update on item_tags
  referencing new table as changed for each statement execute function items_refresh_from_new();
create or replace trigger item_tags_deleted after delete on item_tags
  referencing old table as changed for each statement execute function items_refresh_from_new();

-- What items show of a price type (its symbol), an attribute type (its description) or a tag
-- (its name and description) changed: the items that show it change with it.
create or replace function items_refresh_for_price_type() returns trigger
language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_prices where tenant_id = new.tenant_id and price_type_id = new.id) p
   where i.tenant_id = new.tenant_id and i.id = p.item_id;
  return null;
end $$;

create or replace function items_refresh_for_attribute_type() returns trigger
language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_attributes where tenant_id = new.tenant_id and type_id = new.id) a
   where i.tenant_id = new.tenant_id and i.id = a.item_id;
  return null;
end $$;

create or replace function items_refresh_for_tag() returns trigger
language plpgsql as $$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_tags where tenant_id = new.tenant_id and tag_id = new.id) m
   where i.tenant_id = new.tenant_id and i.id = m.item_id;
  return null;
end $$;

create or replace trigger price_types_shown_in_items after update of symbol on price_types
  for each row when (old.symbol is distinct from new.symbol)
  execute function items_refresh_for_price_type();
create or replace trigger attribute_types_shown_in_items after update of description on dynamic_attribute_types
  for each row when (old.description is distinct from new.description)
  execute function items_refresh_for_attribute_type();
create or replace trigger tags_shown_in_items after update of name, description on tags
  for each row when (old.name is distinct from new.name or old.description is distinct from new.description)
  execute function items_refresh_for_tag();
