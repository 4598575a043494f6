-- Item search (contract §5.3 POST /private/catalog/items): PostgreSQL's own full text, the same
-- SQL on PGlite and PostgreSQL. See docs/design.md "Search".
--   * search_vector: Title and Name (weight A), SKU and Model (B), descriptions (C), folded
--     (lower case, accents removed by unaccent) so that "Café" and "cafe" are the same word.
--     A stored generated column: a write is searchable by the next request.
--   * items_search: GIN on (tenant_id, search_vector) (btree_gin), so the tenant narrows the
--     index scan itself instead of filtering the matches of every tenant afterwards.
--   * item_search_words: each tenant's distinct words (letters only, 4+ characters), kept by
--     triggers in the same transaction as the item write; a query word of 5+ letters also
--     matches the words one edit away (trigram candidates, then levenshtein ≤ 1).
create extension if not exists unaccent schema public;
create extension if not exists btree_gin schema public;
create extension if not exists fuzzystrmatch schema public;

-- Lower case, accents removed, ASCII punctuation made a space (so "EM-100" is the words "em" and
-- "100", as a query splits it, not the parser's signed number "-100").
-- unaccent(text) is only stable (it reads its dictionary by name); the two-argument form with a
-- fixed, schema-qualified dictionary is immutable, so it may be used in a generated column.
create function search_fold(t text) returns text language sql immutable parallel safe strict as $$
  select regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, t)), '[!-/:-@[-`{-~]+', ' ', 'g')
$$;

drop index if exists items_title_trgm;
alter table items drop column search_vector;
alter table items add column search_vector tsvector generated always as (
  setweight(to_tsvector('simple', search_fold(coalesce(title, '') || ' ' || coalesce(name, ''))), 'A') ||
  setweight(to_tsvector('simple', search_fold(coalesce(sku, '') || ' ' || coalesce(model, ''))), 'B') ||
  setweight(to_tsvector('simple', search_fold(coalesce(short_description, '') || ' ' || coalesce(long_description, ''))), 'C')
) stored;
create index items_search on items using gin (tenant_id, search_vector);

-- Orderings of the search: each with the id as the tie-break, tenant first.
create index items_by_title on items (tenant_id, lower(title), id);
create index items_by_date_added on items (tenant_id, date_added, id);
create index items_by_rating on items (tenant_id, rating, id);
create index item_prices_by_type on item_prices (tenant_id, price_type_id, item_id);

create table item_search_words (
  tenant_id integer not null references tenants (id) on delete cascade,
  word text not null,
  primary key (tenant_id, word)
);
create index item_search_words_trgm on item_search_words using gin (tenant_id, word gin_trgm_ops);

insert into item_search_words (tenant_id, word)
  select distinct i.tenant_id, w from items i, unnest(tsvector_to_array(i.search_vector)) w
   where length(w) >= 4 and w ~ '^[[:alpha:]]+$'
  on conflict do nothing;

-- New items: one statement adds the new words of all its rows, in word order (two concurrent
-- writers adding the same new words take their locks in the same order).
create function item_search_words_from_new_rows() returns trigger language plpgsql as $$
begin
  insert into item_search_words (tenant_id, word)
    select distinct n.tenant_id, w from new_rows n, unnest(tsvector_to_array(n.search_vector)) w
     where length(w) >= 4 and w ~ '^[[:alpha:]]+$'
     order by 1, 2
    on conflict do nothing;
  return null;
end $$;
create trigger items_search_words_on_insert after insert on items
  referencing new table as new_rows for each statement execute function item_search_words_from_new_rows();

-- Changed text: only rows whose vector changed (a document refresh does not touch the text).
create function item_search_words_from_row() returns trigger language plpgsql as $$
begin
  insert into item_search_words (tenant_id, word)
    select distinct new.tenant_id, w from unnest(tsvector_to_array(new.search_vector)) w
     where length(w) >= 4 and w ~ '^[[:alpha:]]+$'
     order by 2
    on conflict do nothing;
  return null;
end $$;
create trigger items_search_words_on_update after update on items
  for each row when (old.search_vector is distinct from new.search_vector)
  execute function item_search_words_from_row();

-- The tsquery of a search: each word folded like the documents; the last one also as a prefix
-- (as the user types) when prefix_last, every one when prefix_all; a word of 5+ letters also
-- matches the tenant's words one edit away when typos. `weights` ('' or e.g. 'A') restricts
-- every term to those weights. Null when there is no word.
create function item_search_query(
  p_tenant integer, p_words text[], p_prefix_last boolean, p_prefix_all boolean, p_typos boolean, p_weights text
) returns tsquery language sql stable parallel safe as $$
  with words as (
    select search_fold(w) as w, n, n = cardinality(p_words) as last
      from unnest(p_words) with ordinality as u (w, n)
  ), terms as (
    select n, '(' || string_agg(quote_literal(t) || case when t_suffix <> '' then ':' || t_suffix else '' end, ' | ') || ')' as term
      from (
        select n, w as t, case when p_prefix_all or (last and p_prefix_last) then '*' else '' end || p_weights as t_suffix
          from words
        union all
        select n, s.word, p_weights
          from words, item_search_words s
         where p_typos and length(w) >= 5 and w ~ '^[[:alpha:]]+$'
           and s.tenant_id = p_tenant and s.word % w and s.word <> w
           and levenshtein_less_equal(s.word, w, 1) <= 1
      ) alternatives
     group by n
  )
  select to_tsquery('simple', string_agg(term, ' & ' order by n))
    from terms having count(*) > 0
$$;
