-- The catalog import builds a chunk's item documents and facet arrays in one set-based statement
-- (grouping the chunk's prices, attributes and tags once) instead of the items' row trigger
-- looking up each item's children: that trigger was more than half of an import's time
-- (docs/design.md, "Catalog import and export").
--
-- So that both builds produce the same bytes, the document is split into functions of plain
-- values: item_document_text (the item's own fields, with its children's JSON already joined)
-- and one function per child (a price, an attribute, a tag). item_document(items), which the
-- trigger calls, is now written with them and answers exactly what 0008's did.
--
-- The items' trigger keeps a document given with the row only on insert, only when the
-- transaction set omni.item_documents_given = 'on' (set_config(…, true): it ends with the
-- transaction); every other write, and every update even then, builds it as before.

create function item_price_json(p_id integer, p_item_id integer, p_normal numeric, p_discount numeric,
                                 p_type_id integer, p_symbol text)
returns text language sql stable parallel safe as $$
  select '{"PriceId":' || json_text(p_id) || ',"ItemId":' || json_text(p_item_id) ||
    ',"NormalPrice":' || json_text(p_normal::float8) || ',"DiscountPrice":' || json_text(p_discount::float8) ||
    ',"PriceTypeId":' || json_text(p_type_id) || ',"PriceTypeSymbol":' || json_text(p_symbol) || '}'
$$;

create function item_attribute_json(p_type_id integer, p_value_id integer, p_value text, p_type_name text)
returns text language sql stable parallel safe as $$
  select '{"TypeId":' || json_text(p_type_id) || ',"TypeValueId":' || json_text(p_value_id) ||
    ',"Value":' || json_text(p_value) || ',"TypeName":' || json_text(p_type_name) || '}'
$$;

create function item_tag_json(p_id integer, p_name text, p_description text)
returns text language sql stable parallel safe as $$
  select '{"Id":' || json_text(p_id) || ',"Name":' || json_text(p_name) || ',"Description":' || json_text(p_description) || '}'
$$;

-- p_prices, p_attributes, p_tags: the children's JSON objects joined by commas ('' for none), in
-- the order item_document gives them (price type, attribute type, tag id).
create function item_document_text(
  p_id integer, p_sku text, p_rfid text, p_uuid text, p_name text, p_title text, p_model text,
  p_short_description text, p_long_description text, p_item_status_id smallint, p_category_id integer,
  p_brand_id integer, p_default_item_id integer, p_in_stock boolean, p_public_web_link text,
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

-- The same document as 0008 builds, from the functions above.
create or replace function item_document(i items) returns text language sql stable as $$
  select item_document_text(i.id, i.sku, i.rfid, i.uuid, i.name, i.title, i.model, i.short_description,
    i.long_description, i.item_status_id, i.category_id, i.brand_id, i.default_item_id, i.in_stock,
    i.public_web_link, i.rating, i.like_count, i.date_added, i.date_modified,
    coalesce((select string_agg(item_price_json(p.id, p.item_id, p.normal_price, p.discount_price, p.price_type_id, t.symbol),
                                ',' order by p.price_type_id)
                from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
               where p.tenant_id = i.tenant_id and p.item_id = i.id), ''),
    coalesce((select string_agg(item_attribute_json(a.type_id, a.value_id, v.value, d.description), ',' order by a.type_id)
                from item_attributes a
                join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
                join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
               where a.tenant_id = i.tenant_id and a.item_id = i.id), ''),
    coalesce((select string_agg(item_tag_json(g.id, g.name, g.description), ',' order by g.id)
                from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
               where m.tenant_id = i.tenant_id and m.item_id = i.id), ''))
$$;

-- As 0060's, but an insert may bring its own document and facets (see the top of this file).
create or replace function items_build_document() returns trigger language plpgsql as $$
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
