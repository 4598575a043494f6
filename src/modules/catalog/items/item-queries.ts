// Items are read in their wire shape straight from SQL: PostgreSQL builds the JSON (prices,
// attributes and tags included) in one round trip, and the server passes the text through
// without parsing and re-serialising it. Keys and types follow the Item schema exactly.

const UTC_ISO = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ITEM_JSON = `json_build_object(
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
    'DateAdded', ${UTC_ISO('i.date_added')}, 'DateModified', ${UTC_ISO('i.date_modified')})`;

/** One item: its row version (for the ETag) and its JSON text. */
export const ITEM_BY_ID = `select i.id, i.version, ${ITEM_JSON}::text as json from items i where i.tenant_id = $1 and i.id = $2`;

/** A JSON array of the items matching `filter` (over `items i`), ordered by id. */
export const itemArray = (filter: string) =>
  `select coalesce(json_agg(${ITEM_JSON} order by i.id), '[]'::json)::text as json from items i where ${filter}`;

// Paging by offset walks the primary-key index only, then builds the JSON of one page:
// a deep page costs an index scan, not 50,000 full-row reads.
export const ITEM_PAGE = itemArray(
  'i.tenant_id = $1 and i.id in (select id from items where tenant_id = $1 order by id offset $2 limit $3)',
);
