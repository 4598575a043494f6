-- Navigation counts of a search (tags, attribute values, price ranges) from the matching items'
-- own rows: each item keeps its tag ids, attribute value ids and prices as arrays, rebuilt with
-- its document by the same trigger in the same transaction as any change they depend on (an
-- item_tags/item_prices/item_attributes write sets document = null, which runs it). Counting
-- then unnests the materialised matches instead of joining every match to three child tables
-- (30k matches × 3 index lookups was most of a broad query's time; see docs/search-plans.md).
--   * facet_tag_ids: the item's tag ids.
--   * facet_value_ids: its dynamic attribute value ids (a value belongs to one type).
--   * facet_price_type_ids / facet_prices: per price type (same order), what the customer pays,
--     coalesce(discount_price, normal_price), as float8 (what the navigation shows; min and max
--     of float8 are cheaper than of numeric, and the conversion keeps the order).
alter table items
  add column facet_tag_ids integer[] not null default '{}',
  add column facet_value_ids integer[] not null default '{}',
  add column facet_price_type_ids integer[] not null default '{}',
  add column facet_prices float8[] not null default '{}';

create or replace function items_build_document() returns trigger language plpgsql as $$
begin
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

update items set document = null;

-- The total of a search without text or navigation (e.g. a deep page by Title) counts the
-- tenant's active items: an index-only scan of this index instead of reading every item row.
create index items_by_status on items (tenant_id, item_status_id);
