-- Full-text search over the narrow search rows (docs/design.md "Search"; docs/search-plans.md):
-- the rows and the tenant's word list kept by triggers on items, in the writing transaction
-- whatever the write path; the query built from the tenant's words (prefix completions, typos).
--
-- Written to run where Citus runs it (src/db/sql/020-event-feed.sql says how).

-- Text as it is indexed and searched: lowercase, accents off, punctuation as spaces.
create or replace function search_fold(t text) returns text
language sql immutable parallel safe strict as $$
  select regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, t)), '[!-/:-@[-`{-~]+', ' ', 'g')
$$;

-- Sample marks (bounded cost of broad searches): an item carries '~s1' … '~sL', L the leading
-- zero bits (at most 10) of a multiplicative (Fibonacci) hash of its id, so that '~sK' marks a
-- 2^-K sample of the items, the levels nested. A query word never holds '~'. The hash is the low
-- 32 bits of id × 2654435761, computed in numeric: a 64-bit id times it overflows a bigint.
-- Ids were 32-bit until migration 0302: these functions took integer ids.
drop function if exists item_search_sample_marks(integer);
drop function if exists item_search_sample_level(integer);
create or replace function item_search_sample_level(p_item bigint) returns integer
language sql immutable parallel safe strict as $$
  select least(10, coalesce(nullif(position('1' in (((p_item::numeric * 2654435761) % 4294967296)::bigint::bit(32))::text), 0) - 1, 32))
$$;

create or replace function item_search_sample_marks(p_item bigint) returns tsvector
language sql immutable parallel safe strict as $$
  select array_to_tsvector(array(select '~s' || k from generate_series(1, item_search_sample_level(p_item)) k))
$$;

-- Tenant-scoped words: each lexeme of a search row names its tenant ('lantern' of tenant 4 is
-- '4 lantern'), so a word's postings in the GIN index are that tenant's alone. A lexeme never
-- holds a space, so " '" only ever starts one in the vector's text form.
create or replace function item_search_scoped(p_tenant integer, p_vector tsvector) returns tsvector
language sql immutable parallel safe strict as $$
  select substr(replace(' ' || p_vector::text, ' ''', ' ''' || p_tenant || ' '), 2)::tsvector
$$;

-- A query scoped the same way: each quoted lexeme (a doubled quote is a quote inside it).
create or replace function item_search_scoped_query(p_tenant integer, p_query tsquery) returns tsquery
language sql immutable parallel safe strict as $$
  select regexp_replace(p_query::text, '''((?:[^'']|'''')*)''', '''' || p_tenant || ' \1''', 'g')::tsquery
$$;

-- The sample mark '~sK' of a tenant's rows, as a query.
create or replace function item_search_mark(p_tenant integer, p_level integer) returns tsquery
language sql immutable parallel safe strict as $$
  select ('''' || p_tenant || ' ~s' || p_level || '''')::tsquery
$$;

-- The row types of `items` and `item_search_rows` were these functions' arguments before they
-- ran on shards, whose row types are the shards' own.
drop function if exists item_search_row(items);
drop function if exists item_search_row(anyelement);
drop function if exists item_search_count(item_search_rows[], integer);
drop function if exists item_search_row(integer, integer, smallint, integer, integer, integer, text, text,
  timestamptz, numeric, integer[], integer[], integer[], float8[], tsvector);

-- An item's search row, from its columns as stored.
create or replace function item_search_row(p_tenant integer, p_id bigint, p_status smallint,
    p_default_item bigint, p_category bigint, p_brand bigint, p_title text, p_name text,
    p_date_added timestamptz, p_rating numeric, p_tag_ids bigint[], p_value_ids bigint[],
    p_price_type_ids bigint[], p_prices float8[], p_vector tsvector) returns item_search_rows
language sql immutable parallel safe as $$
  select p_tenant, p_id, p_status, p_default_item, p_category, p_brand, lower(p_title), p_date_added, p_rating,
         p_tag_ids, p_value_ids, p_price_type_ids, p_prices,
         item_search_scoped(p_tenant, p_vector || item_search_sample_marks(p_id)),
         item_search_scoped(p_tenant,
           setweight(to_tsvector('simple', search_fold(coalesce(p_title, '') || ' ' || coalesce(p_name, ''))), 'A'))
$$;

-- Adds p_sign × the items counted per (tenant, status, master) to item_search_counts, in key
-- order (two writers lock the counts in the same order).
create or replace function item_search_count(p_tenants integer[], p_statuses smallint[],
    p_masters boolean[], p_sign integer) returns void
language plpgsql as $$
declare
  r record;
begin
  for r in
    select tenant_id, item_status_id, master, count(*) as n
      from unnest(p_tenants, p_statuses, p_masters) as u (tenant_id, item_status_id, master)
     group by 1, 2, 3 order by 1, 2, 3
  loop
    insert into item_search_counts as c (tenant_id, item_status_id, master, items)
      values (r.tenant_id, r.item_status_id, r.master, p_sign * r.n)
    on conflict (tenant_id, item_status_id, master) do update set items = c.items + excluded.items;
  end loop;
end $$;

-- The same for search rows: an item is a master when it has no default item or is its own.
create or replace function item_search_count_rows(p_rows item_search_rows[], p_sign integer) returns void
language plpgsql as $$
declare
  v_tenants integer[];
  v_statuses smallint[];
  v_masters boolean[];
begin
  select array_agg(r.tenant_id), array_agg(r.item_status_id),
         array_agg(r.default_item_id is null or r.default_item_id = r.item_id)
    into v_tenants, v_statuses, v_masters
    from unnest(p_rows) as r;
  perform item_search_count(v_tenants, v_statuses, v_masters, p_sign);
end $$;

create or replace function item_search_rows_inserted() returns trigger
language plpgsql as $$
declare
  v_rows item_search_rows[];
begin
  select array_agg(item_search_row(n.tenant_id, n.id, n.item_status_id, n.default_item_id, n.category_id,
           n.brand_id, n.title, n.name, n.date_added, n.rating, n.facet_tag_ids, n.facet_value_ids,
           n.facet_price_type_ids, n.facet_prices, n.search_vector))
    into v_rows from new_rows n;
  insert into item_search_rows select * from unnest(v_rows);
  perform item_search_count_rows(v_rows, 1);
  return null;
end $$;

create or replace function item_search_rows_deleted() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_items bigint[];
  v_statuses smallint[];
  v_masters boolean[];
begin
  for v_tenant, v_items in select tenant_id, array_agg(id) from old_rows group by tenant_id loop
    with gone as (
      delete from item_search_rows where tenant_id = v_tenant and item_id = any(v_items)
      returning item_status_id, default_item_id is null or default_item_id = item_id as master
    )
    select array_agg(item_status_id), array_agg(master) into v_statuses, v_masters from gone;
    if v_statuses is not null then
      perform item_search_count(array_fill(v_tenant, array[cardinality(v_statuses)]),
                                v_statuses, v_masters, -1);
    end if;
  end loop;
  return null;
end $$;

-- Rewrites the search rows of the items updated whose row changed; the counts move with an item
-- whose status or master flag changed.
create or replace function item_search_rows_updated() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_before item_search_rows[];
  v_after item_search_rows[];
  v_moved_before item_search_rows[];
  v_moved_after item_search_rows[];
begin
  for v_tenant in select distinct tenant_id from new_rows loop
    select array_agg(item_search_row(o.tenant_id, o.id, o.item_status_id, o.default_item_id, o.category_id,
             o.brand_id, o.title, o.name, o.date_added, o.rating, o.facet_tag_ids, o.facet_value_ids,
             o.facet_price_type_ids, o.facet_prices, o.search_vector)),
           array_agg(item_search_row(n.tenant_id, n.id, n.item_status_id, n.default_item_id, n.category_id,
             n.brand_id, n.title, n.name, n.date_added, n.rating, n.facet_tag_ids, n.facet_value_ids,
             n.facet_price_type_ids, n.facet_prices, n.search_vector))
      into v_before, v_after
      from old_rows o join new_rows n on n.tenant_id = o.tenant_id and n.id = o.id
     where n.tenant_id = v_tenant;
    with written as (
      update item_search_rows s
         set item_status_id = (c.a).item_status_id, default_item_id = (c.a).default_item_id,
             category_id = (c.a).category_id, brand_id = (c.a).brand_id, title_key = (c.a).title_key,
             date_added = (c.a).date_added, rating = (c.a).rating, facet_tag_ids = (c.a).facet_tag_ids,
             facet_value_ids = (c.a).facet_value_ids, facet_price_type_ids = (c.a).facet_price_type_ids,
             facet_prices = (c.a).facet_prices, search_vector = (c.a).search_vector,
             title_vector = (c.a).title_vector
        from (select unnest(v_before) as b, unnest(v_after) as a) as c
       where s.tenant_id = v_tenant and s.item_id = (c.a).item_id
         and (s.item_status_id, s.default_item_id, s.category_id, s.brand_id, s.title_key, s.date_added,
              s.rating, s.facet_tag_ids, s.facet_value_ids, s.facet_price_type_ids, s.facet_prices,
              s.search_vector, s.title_vector)
             is distinct from
             ((c.a).item_status_id, (c.a).default_item_id, (c.a).category_id, (c.a).brand_id, (c.a).title_key,
              (c.a).date_added, (c.a).rating, (c.a).facet_tag_ids, (c.a).facet_value_ids,
              (c.a).facet_price_type_ids, (c.a).facet_prices, (c.a).search_vector, (c.a).title_vector)
      returning c.b, c.a,
                (c.b).item_status_id <> (c.a).item_status_id
                or ((c.b).default_item_id is null or (c.b).default_item_id = (c.b).item_id)
                   <> ((c.a).default_item_id is null or (c.a).default_item_id = (c.a).item_id) as moved
    )
    select array_agg(b) filter (where moved), array_agg(a) filter (where moved)
      into v_moved_before, v_moved_after
      from written;
    if v_moved_before is not null then
      perform item_search_count_rows(v_moved_before, -1);
      perform item_search_count_rows(v_moved_after, 1);
    end if;
  end loop;
  return null;
end $$;

create or replace trigger items_search_rows_on_insert after insert on items
  referencing new table as new_rows for each statement execute function item_search_rows_inserted();
create or replace trigger items_search_rows_on_update after update on items
  referencing old table as old_rows new table as new_rows for each statement execute function item_search_rows_updated();
create or replace trigger items_search_rows_on_delete after delete on items
  referencing old table as old_rows for each statement execute function item_search_rows_deleted();

-- The tenant's words (those starting with four letters): prefix completions and typo candidates.
create or replace function item_search_words_from_new_rows() returns trigger
language plpgsql as $$
declare
  v_tenant integer;
  v_words text[];
begin
  for v_tenant, v_words in
    select n.tenant_id, array_agg(distinct w order by w)
      from new_rows n, unnest(tsvector_to_array(n.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     group by n.tenant_id
  loop
    insert into item_search_words (tenant_id, word)
      select v_tenant, w from unnest(v_words) w order by w
    on conflict do nothing;
  end loop;
  return null;
end $$;

create or replace function item_search_words_from_row() returns trigger
language plpgsql as $$
begin
  insert into item_search_words (tenant_id, word)
    select new.tenant_id, w from unnest(tsvector_to_array(new.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     order by w
  on conflict do nothing;
  return null;
end $$;

create or replace trigger items_search_words_on_insert after insert on items
  referencing new table as new_rows for each statement execute function item_search_words_from_new_rows();
create or replace trigger items_search_words_on_update after update on items
  for each row when (old.search_vector is distinct from new.search_vector)
  execute function item_search_words_from_row();

-- A query word's typo alternatives (one insertion, deletion or substitution): the tenant's words
-- similar to it by trigrams, looked up by a statement planned for that word (the trigram index
-- answers a constant in a fraction of a millisecond; as a join clause it read the whole list).
create or replace function item_search_typo_words(p_tenant integer, p_word text)
returns setof text language plpgsql stable parallel safe as $$
begin
  return query execute format(
    'select s.word from item_search_words s
      where s.tenant_id = %s and s.word %% %L and s.word <> %L and s.word ~ ''^[[:alpha:]]+$''
        and levenshtein_less_equal(s.word, %L, 1) <= 1',
    p_tenant, p_word, p_word, p_word);
end $$;

-- The tenant-scoped text query of a search's words: each word with its prefix completions
-- (a last word of four letters or more with at most 64 completions becomes them), its one-typo
-- alternatives and transpositions when asked, and the weights asked for; null when there is no
-- word. Each lookup of the tenant's words is a statement of its own: on Citus none may run
-- inside a statement on a shard.
create or replace function item_search_query(
  p_tenant integer, p_words text[], p_prefix_last boolean, p_prefix_all boolean, p_typos boolean, p_weights text
) returns tsquery language plpgsql stable parallel safe as $$
declare
  v_weights text := case when p_weights <> '' then ':' || p_weights else '' end;
  v_terms text[] := '{}';
  v_word text;
  v_n integer := 0;
  v_prefix boolean;
  v_completions text[];
  v_expanded boolean;
  v_alternatives text[];
begin
  foreach v_word in array p_words loop
    v_n := v_n + 1;
    v_word := search_fold(v_word);
    v_prefix := p_prefix_all or (v_n = cardinality(p_words) and p_prefix_last);
    v_expanded := false;
    if v_prefix and v_word ~ '^[[:alpha:]]{4,}$' then
      v_completions := array(
        select s.word from item_search_words s
         where s.tenant_id = p_tenant
           and s.word collate "C" > v_word and s.word collate "C" < v_word || chr(1114111)
         limit 65);
      v_expanded := cardinality(v_completions) <= 64;
    end if;
    v_alternatives := array[quote_literal(v_word) ||
      case when v_prefix and not v_expanded then ':*' || p_weights else v_weights end];
    if v_expanded then
      v_alternatives := v_alternatives || array(select quote_literal(c) || v_weights from unnest(v_completions) c);
    end if;
    if p_typos and length(v_word) >= 5 and v_word ~ '^[[:alpha:]]+$' then
      v_alternatives := v_alternatives ||
        array(select quote_literal(t) || v_weights from item_search_typo_words(p_tenant, v_word) t);
      v_alternatives := v_alternatives || array(
        select quote_literal(s.word) || v_weights from item_search_words s
         where s.tenant_id = p_tenant and s.word <> v_word
           and s.word = any(array(select substr(v_word, 1, i - 1) || substr(v_word, i + 1, 1) || substr(v_word, i, 1)
                                         || substr(v_word, i + 2)
                                    from generate_series(1, length(v_word) - 1) as i)));
    end if;
    v_terms := v_terms || ('(' || array_to_string(v_alternatives, ' | ') || ')');
  end loop;
  if cardinality(v_terms) = 0 then
    return null;
  end if;
  return item_search_scoped_query(p_tenant, to_tsquery('simple', array_to_string(v_terms, ' & ')));
end $$;
