-- The catalog's ids and the columns that refer to them, 64-bit (src/db/migrations/0301): the
-- keys, their references (parents, brands, categories, price types, attribute types and values,
-- tags, assets, imports), and the items' and search rows' facet arrays of tag, value and price
-- type ids. Referenced tables first; each table is rewritten once.
select ids_to_bigint(t.tbl, t.cols) from (values
  ('price_types'::regclass, '{id}'::text[]),
  ('brands', '{id}'),
  ('categories', '{id,parent_id}'),
  ('category_metadata', '{category_id}'),
  ('tags', '{id}'),
  ('dynamic_attribute_types', '{id}'),
  ('dynamic_attribute_values', '{id,type_id}'),
  ('items', '{id,category_id,brand_id,default_item_id,facet_tag_ids,facet_value_ids,facet_price_type_ids}'),
  ('item_prices', '{id,item_id,price_type_id}'),
  ('item_attributes', '{item_id,type_id,value_id}'),
  ('item_tags', '{item_id,tag_id}'),
  ('item_assets', '{item_id,asset_id}'),
  ('brand_assets', '{brand_id,asset_id}'),
  ('category_assets', '{category_id,asset_id}'),
  ('item_search_rows', '{item_id,default_item_id,category_id,brand_id,facet_tag_ids,facet_value_ids,facet_price_type_ids}'),
  ('catalog_imports', '{id,source_asset_id}'),
  ('catalog_import_groups', '{import_id,default_item_id}'),
  ('catalog_import_results', '{import_id}'),
  ('catalog_import_skus', '{import_id}'),
  ('catalog_exports', '{id,asset_id}')) as t (tbl, cols);
