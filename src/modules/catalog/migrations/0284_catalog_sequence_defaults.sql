-- The catalog's ids from sequence defaults, not identity columns (src/db/migrations/0280).
select identity_to_sequence(t, 'id')
  from unnest(array['price_types', 'brands', 'categories', 'tags', 'dynamic_attribute_types',
                    'dynamic_attribute_values', 'items', 'item_prices', 'catalog_imports',
                    'catalog_exports']::regclass[]) as t;
