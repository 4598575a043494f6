-- The search reads item_search_rows (migration 0140), which has its own text and ordering
-- indexes; these indexes of `items` served only the search before it, and every item write
-- (the bulk import's chunks above all) paid for keeping them, a GIN index among them. The
-- items list pages by id (primary key); SKU, UUID, category, brand and variant lookups keep
-- their indexes. The export's text filter reads the narrow rows' GIN index too.
drop index if exists items_search;
drop index if exists items_by_title;
drop index if exists items_by_date_added;
drop index if exists items_by_rating;
drop index if exists items_by_status;
