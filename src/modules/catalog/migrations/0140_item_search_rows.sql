-- The item search reads a narrow copy of each item (docs/design.md "Search"): what the filters,
-- orderings and navigations need, and the weighted text vector, without the stored document,
-- the source text and the other wide columns of `items`. A broad query (a word in 30% of the
-- items) then reads a third of the pages it read in `items`, and the relevance rank and the tier
-- are computed from the row already read instead of a second lookup of the wide item.
--   * Kept by triggers on `items` in the same transaction as the write, whatever the write path
--     (API, bulk import, seed): they copy the item row as stored, after the BEFORE triggers
--     have built its document, facet arrays and search vector, and never look at how those were
--     built.
--   * item_search_counts: the tenant's items per status and master flag, so the total of a
--     search without text or other filters (e.g. a deep page by Title) is a sum of at most four
--     rows instead of counting every item.
create table item_search_rows (
  tenant_id integer not null references tenants (id) on delete cascade,
  item_id integer not null,
  item_status_id smallint not null,
  default_item_id integer,
  category_id integer,
  brand_id integer,
  -- Orderings (Title is ordered by lower(title), as the items list does).
  title_key text not null,
  date_added timestamptz not null,
  rating numeric(4, 2),
  -- Navigations and price filters: the item's own facet arrays (migration 0060).
  facet_tag_ids integer[] not null,
  facet_value_ids integer[] not null,
  facet_price_type_ids integer[] not null,
  facet_prices float8[] not null,
  -- Text: the item's weighted vector, and its Title and Name part alone (the tier of a broad
  -- relevance page: a match in the title first).
  search_vector tsvector not null,
  title_vector tsvector not null,
  primary key (tenant_id, item_id)
);
create table item_search_counts (
  tenant_id integer not null references tenants (id) on delete cascade,
  item_status_id smallint not null,
  master boolean not null,
  items bigint not null,
  primary key (tenant_id, item_status_id, master)
);

-- The narrow row of an item row (the same expression for the backfill and every trigger).
create function item_search_row(i items) returns item_search_rows language sql immutable parallel safe as $$
  select i.tenant_id, i.id, i.item_status_id, i.default_item_id, i.category_id, i.brand_id,
         lower(i.title), i.date_added, i.rating,
         i.facet_tag_ids, i.facet_value_ids, i.facet_price_type_ids, i.facet_prices,
         i.search_vector,
         setweight(to_tsvector('simple', search_fold(coalesce(i.title, '') || ' ' || coalesce(i.name, ''))), 'A')
$$;

-- Adds `sign` × the rows' counts per (tenant, status, master), in key order (two writers take
-- their row locks in the same order).
create function item_search_count(p_rows item_search_rows[], sign integer) returns void language sql as $$
  insert into item_search_counts as c (tenant_id, item_status_id, master, items)
    select r.tenant_id, r.item_status_id, r.default_item_id is null or r.default_item_id = r.item_id, sign * count(*)
      from unnest(p_rows) r
     group by 1, 2, 3
     order by 1, 2, 3
  on conflict (tenant_id, item_status_id, master) do update set items = c.items + excluded.items
$$;

create function item_search_rows_inserted() returns trigger language plpgsql as $$
declare
  added item_search_rows[];
begin
  select array_agg(item_search_row(n)) into added from new_rows n;
  insert into item_search_rows select * from unnest(added);
  perform item_search_count(added, 1);
  return null;
end $$;
create trigger items_search_rows_on_insert after insert on items
  referencing new table as new_rows for each statement execute function item_search_rows_inserted();

-- Only the rows whose narrow copy changed are rewritten (a like or a stock change is not).
create function item_search_rows_updated() returns trigger language plpgsql as $$
declare
  before item_search_rows[];
  after item_search_rows[];
begin
  with changed as (
    select item_search_row(o) as b, item_search_row(n) as a
      from old_rows o join new_rows n on n.tenant_id = o.tenant_id and n.id = o.id
  ), written as (
    update item_search_rows s
       set item_status_id = (c.a).item_status_id, default_item_id = (c.a).default_item_id,
           category_id = (c.a).category_id, brand_id = (c.a).brand_id, title_key = (c.a).title_key,
           date_added = (c.a).date_added, rating = (c.a).rating, facet_tag_ids = (c.a).facet_tag_ids,
           facet_value_ids = (c.a).facet_value_ids, facet_price_type_ids = (c.a).facet_price_type_ids,
           facet_prices = (c.a).facet_prices, search_vector = (c.a).search_vector,
           title_vector = (c.a).title_vector
      from changed c
     where s.tenant_id = (c.a).tenant_id and s.item_id = (c.a).item_id and c.a is distinct from s
    returning c.b, c.a,
              (c.b).item_status_id <> (c.a).item_status_id
              or ((c.b).default_item_id is null or (c.b).default_item_id = (c.b).item_id)
                 <> ((c.a).default_item_id is null or (c.a).default_item_id = (c.a).item_id) as moved
  )
  select array_agg(b) filter (where moved), array_agg(a) filter (where moved)
    into before, after
    from written;
  if before is not null then
    perform item_search_count(before, -1);
    perform item_search_count(after, 1);
  end if;
  return null;
end $$;
create trigger items_search_rows_on_update after update on items
  referencing old table as old_rows new table as new_rows for each statement execute function item_search_rows_updated();

create function item_search_rows_deleted() returns trigger language plpgsql as $$
declare
  removed item_search_rows[];
begin
  with gone as (
    delete from item_search_rows s using old_rows o where s.tenant_id = o.tenant_id and s.item_id = o.id
    returning s as gone_row
  )
  select array_agg(gone_row) into removed from gone;
  if removed is not null then
    perform item_search_count(removed, -1);
  end if;
  return null;
end $$;
create trigger items_search_rows_on_delete after delete on items
  referencing old table as old_rows for each statement execute function item_search_rows_deleted();

-- The existing items, then the indexes (built once over them rather than row by row).
insert into item_search_rows select (item_search_row(i)).* from items i;
insert into item_search_counts (tenant_id, item_status_id, master, items)
  select tenant_id, item_status_id, default_item_id is null or default_item_id = item_id, count(*)
    from item_search_rows group by 1, 2, 3;
create index item_search_rows_text on item_search_rows using gin (tenant_id, search_vector);
-- A page by Title walks this index; status and variant are in it, so a deep page reads the
-- index alone (an index-only scan) instead of one heap row per skipped item.
create index item_search_rows_by_title on item_search_rows (tenant_id, title_key, item_id)
  include (item_status_id, default_item_id);
create index item_search_rows_by_date_added on item_search_rows (tenant_id, date_added, item_id);
create index item_search_rows_by_rating on item_search_rows (tenant_id, rating, item_id);
create index item_search_rows_category on item_search_rows (tenant_id, category_id);
create index item_search_rows_brand on item_search_rows (tenant_id, brand_id);

analyze item_search_rows;
