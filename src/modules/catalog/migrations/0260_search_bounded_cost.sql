-- Bounded cost of broad text searches (docs/design.md "Search": "Estimated counts above the
-- exact limit"). Two additions to the narrow search rows, both read only through the GIN index,
-- so that a search with tens of thousands of matches reads a sample of them, not all of them:
--   * Sample marks. Each item carries the lexemes '~s1' … '~sL' in its search vector, where L
--     (0..10) is the number of leading zero bits of a multiplicative hash of its id: an item
--     has '~sK' with probability 2^-K, and the levels are nested (the items marked '~s6' are a
--     64th of the items, and among those marked '~s5'). A query ANDed with '~sK' finds the
--     matches of that sample in the index itself. The hash is Fibonacci hashing (the fractional
--     part of id × the golden ratio), so consecutive ids spread evenly over the levels. The
--     marks cannot be asked for: a query word is letters and digits, never '~'. They change no
--     rank: ts_rank only reads the query's own lexemes.
--   * The Title and Name vector in the GIN index beside the full vector, so that the items
--     matching in Title or Name (the first tier of a broad relevance page) are found by the
--     index when they are few.
create function item_search_sample_level(p_item integer) returns integer
language sql immutable parallel safe strict as $$
  select least(10, coalesce(nullif(position('1' in ((p_item::bigint * 2654435761)::bit(32))::text), 0) - 1, 32))
$$;
create function item_search_sample_marks(p_item integer) returns tsvector
language sql immutable parallel safe strict as $$
  select array_to_tsvector(array(select '~s' || k from generate_series(1, item_search_sample_level(p_item)) k))
$$;

create or replace function item_search_row(i items) returns item_search_rows language sql immutable parallel safe as $$
  select i.tenant_id, i.id, i.item_status_id, i.default_item_id, i.category_id, i.brand_id,
         lower(i.title), i.date_added, i.rating,
         i.facet_tag_ids, i.facet_value_ids, i.facet_price_type_ids, i.facet_prices,
         i.search_vector || item_search_sample_marks(i.id),
         setweight(to_tsvector('simple', search_fold(coalesce(i.title, '') || ' ' || coalesce(i.name, ''))), 'A')
$$;

-- The existing rows gain their marks; the index is built once over them afterwards.
drop index item_search_rows_text;
update item_search_rows set search_vector = search_vector || item_search_sample_marks(item_id);
create index item_search_rows_text on item_search_rows using gin (tenant_id, search_vector, title_vector);
analyze item_search_rows;
