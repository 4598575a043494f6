-- Item documents are stored as compact ASCII JSON: no spaces between tokens, and each character
-- outside ASCII written as JSON's own \u escape (a surrogate pair above U+FFFF), which every JSON
-- reader turns back into the same text. Reads pass documents through, so their bytes are what
-- a page costs: json_build_object's " : " and ", " were a seventh of a document, and a single
-- "€" made a whole page a two-byte string in Node (decoded, joined and encoded again at a
-- fifth of the page rate). Measured with `npm run bench`; see docs/design.md.

-- A value as JSON text, null for SQL NULL. Simple enough for the planner to inline: the
-- document below is one expression, without a function call per field.
create function json_text(value anyelement) returns text language sql stable parallel safe as $$
  select coalesce(to_json(value)::text, 'null')
$$;

-- JSON text is ASCII outside its strings, so every non-ASCII character is inside a string value
-- and may be replaced there by its escape.
create function json_ascii(document text) returns text language plpgsql immutable strict parallel safe as $$
declare
  ch text;
  code integer;
begin
  if document !~ '[^\x01-\x7f]' then
    return document;
  end if;
  for ch in select distinct m[1] from regexp_matches(document, '([^\x01-\x7f])', 'g') as m loop
    code := ascii(ch);
    document := replace(document, ch, case
      when code < 65536 then '\u' || lpad(to_hex(code), 4, '0')
      else '\u' || to_hex(55296 + ((code - 65536) >> 10)) || '\u' || to_hex(56320 + ((code - 65536) & 1023))
    end);
  end loop;
  return document;
end $$;

-- The same document as 0005 builds, written compactly.
create or replace function item_document(i items) returns text language sql stable as $$
  select json_ascii(
    '{"Id":' || json_text(i.id) || ',"SKU":' || json_text(i.sku) || ',"RFID":' || json_text(i.rfid) ||
    ',"UUID":' || json_text(i.uuid) || ',"Name":' || json_text(i.name) || ',"Title":' || json_text(i.title) ||
    ',"Model":' || json_text(i.model) || ',"ShortDescription":' || json_text(i.short_description) ||
    ',"LongDescription":' || json_text(i.long_description) || ',"ItemStatusId":' || json_text(i.item_status_id) ||
    ',"CategoryId":' || json_text(i.category_id) || ',"BrandId":' || json_text(i.brand_id) ||
    ',"DefaultItemId":' || json_text(i.default_item_id) || ',"InStock":' || json_text(i.in_stock) ||
    ',"PublicWebLink":' || json_text(i.public_web_link) || ',"Rating":' || json_text(i.rating::float8) ||
    ',"LikeCount":' || json_text(i.like_count) ||
    ',"Prices":[' || coalesce((select string_agg(
        '{"PriceId":' || json_text(p.id) || ',"ItemId":' || json_text(p.item_id) ||
        ',"NormalPrice":' || json_text(p.normal_price::float8) || ',"DiscountPrice":' || json_text(p.discount_price::float8) ||
        ',"PriceTypeId":' || json_text(p.price_type_id) || ',"PriceTypeSymbol":' || json_text(t.symbol) || '}',
        ',' order by p.price_type_id)
      from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
      where p.tenant_id = i.tenant_id and p.item_id = i.id), '') ||
    '],"DynamicAttributes":[' || coalesce((select string_agg(
        '{"TypeId":' || json_text(a.type_id) || ',"TypeValueId":' || json_text(a.value_id) ||
        ',"Value":' || json_text(v.value) || ',"TypeName":' || json_text(d.description) || '}',
        ',' order by a.type_id)
      from item_attributes a
      join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
      join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
      where a.tenant_id = i.tenant_id and a.item_id = i.id), '') ||
    '],"Tags":[' || coalesce((select string_agg(
        '{"Id":' || json_text(g.id) || ',"Name":' || json_text(g.name) || ',"Description":' || json_text(g.description) || '}',
        ',' order by g.id)
      from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
      where m.tenant_id = i.tenant_id and m.item_id = i.id), '') ||
    '],"DateAdded":"' || to_char(i.date_added at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
    '","DateModified":"' || to_char(i.date_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}')
$$;

update items set document = null;
