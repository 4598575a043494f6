// The one SELECT that reads items in their wire shape, prices, attributes and tags included,
// in a single round trip (json aggregation), for fetch, list and search alike.

export const ITEM_SELECT = `
  select i.id as "Id", i.sku as "SKU", i.rfid as "RFID", i.uuid as "UUID", i.name as "Name", i.title as "Title",
         i.model as "Model", i.short_description as "ShortDescription", i.long_description as "LongDescription",
         i.item_status_id as "ItemStatusId", i.category_id as "CategoryId", i.brand_id as "BrandId",
         i.default_item_id as "DefaultItemId", i.in_stock as "InStock", i.public_web_link as "PublicWebLink",
         i.rating::float8 as "Rating", i.like_count as "LikeCount", i.date_added as "DateAdded",
         i.date_modified as "DateModified", i.version as "version",
         coalesce((select json_agg(json_build_object('PriceId', p.id, 'ItemId', p.item_id,
                          'NormalPrice', p.normal_price::float8, 'DiscountPrice', p.discount_price::float8,
                          'PriceTypeId', p.price_type_id, 'PriceTypeSymbol', t.symbol) order by p.price_type_id)
                     from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
                    where p.tenant_id = i.tenant_id and p.item_id = i.id), '[]') as "Prices",
         coalesce((select json_agg(json_build_object('TypeId', a.type_id, 'TypeValueId', a.value_id,
                          'Value', v.value, 'TypeName', d.description) order by a.type_id)
                     from item_attributes a
                     join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
                     join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
                    where a.tenant_id = i.tenant_id and a.item_id = i.id), '[]') as "DynamicAttributes",
         coalesce((select json_agg(json_build_object('Id', g.id, 'Name', g.name, 'Description', g.description) order by g.id)
                     from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
                    where m.tenant_id = i.tenant_id and m.item_id = i.id), '[]') as "Tags"
    from items i`;

export const ITEM_BY_ID = `${ITEM_SELECT} where i.tenant_id = $1 and i.id = $2`;

// Paging by offset walks the primary-key index only, then reads the full rows of one page:
// a deep page costs an index scan, not 50,000 full-row reads.
export const ITEM_PAGE = `${ITEM_SELECT}
   where i.tenant_id = $1
     and i.id in (select id from items where tenant_id = $1 order by id offset $2 limit $3)
   order by i.id`;
