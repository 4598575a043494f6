-- Cheaper matches (issue 31, docs/design.md "Tenant-scoped words" and "Typo lookup").
--
-- 1. Tenant-scoped words in the search rows' vectors: no walk of the tenant's whole posting list
-- per query. Until now the GIN index was on (tenant_id, search_vector,
-- title_vector): every text search intersected the postings of its words with the tenant's
-- entry, which lists every row of the tenant (1M entries for a 1M-item catalog), and the words'
-- postings held every tenant's rows. Measured at 1M items: a probe (`lantern & ~s6`, 155 rows)
-- read 441 index pages in 3.3 ms, 24 pages in 0.5 ms from an index of that tenant alone; whole
-- search statements took 35-45 % less.
-- So each lexeme of a search row now names its tenant: 'lantern' of tenant 4 is '4 lantern', and
-- the index is on the vectors alone. A tenant's query is scoped the same way
-- (`item_search_query` returns it scoped), so it can only find that tenant's rows, and a word's
-- postings are that tenant's. Ranking is unchanged: positions and weights are kept, and ts_rank
-- reads only the query's lexemes. `items.search_vector` (the words list's source) stays unscoped.
--
-- The scoping rewrites the vector's text form: every lexeme is written as a quoted string, the
-- first one at the start and each next one after a space. A lexeme of the parser never holds a
-- space (the 'simple' configuration keeps no token type that can), so " '" only ever starts a
-- lexeme. 16 us a row, paid on write.
create function item_search_scoped(p_tenant integer, p_vector tsvector) returns tsvector
language sql immutable parallel safe strict as $$
  select substr(replace(' ' || p_vector::text, ' ''', ' ''' || p_tenant || ' '), 2)::tsvector
$$;

-- A query's text form quotes its lexemes too, but operators, not spaces, may come before one; so
-- each quoted string (a doubled quote is a quote inside it) is rewritten.
create function item_search_scoped_query(p_tenant integer, p_query tsquery) returns tsquery
language sql immutable parallel safe strict as $$
  select regexp_replace(p_query::text, '''((?:[^'']|'''')*)''', '''' || p_tenant || ' \1''', 'g')::tsquery
$$;

-- The sample mark '~sK' (migration 0260) of a tenant's rows, as a query.
create function item_search_mark(p_tenant integer, p_level integer) returns tsquery
language sql immutable parallel safe strict as $$
  select ('''' || p_tenant || ' ~s' || p_level || '''')::tsquery
$$;

create or replace function item_search_row(i items) returns item_search_rows language sql immutable parallel safe as $$
  select i.tenant_id, i.id, i.item_status_id, i.default_item_id, i.category_id, i.brand_id,
         lower(i.title), i.date_added, i.rating,
         i.facet_tag_ids, i.facet_value_ids, i.facet_price_type_ids, i.facet_prices,
         item_search_scoped(i.tenant_id, i.search_vector || item_search_sample_marks(i.id)),
         item_search_scoped(i.tenant_id,
           setweight(to_tsvector('simple', search_fold(coalesce(i.title, '') || ' ' || coalesce(i.name, ''))), 'A'))
$$;

-- 2. The typo lookup. A query word's typo alternatives (one insertion, deletion or substitution)
-- are the tenant's words similar to it by trigrams. Inside `item_search_query` the word is a
-- column of a CTE, so `s.word % w` is a join clause: the planner then reads the tenant's whole
-- word list by the B-tree on (tenant_id, word) and tests every word (measured: 3.1-3.6 ms for
-- 2,736 words, a third to half of a 1 % query's statement at 100k items). With the word written into the statement as a constant,
-- the trigram index answers in a fraction of a millisecond. So each word's candidates are looked
-- up by a statement of its own, planned for that word (`execute`, never a generic plan).
-- `item_search_query` itself becomes PL/pgSQL: a SQL function's statement is planned again on
-- every call, a PL/pgSQL one is planned once per connection (the whole lookup: 0.55 ms a call).
--
-- The trigram index takes its new words straight in (no pending list): a GIN pending list is read
-- whole by every search until vacuum merges it, and right after an import that made the lookup
-- cost 4 ms instead of 0.05. New words are few once a catalog's vocabulary is known.
alter index item_search_words_trgm set (fastupdate = off);
select gin_clean_pending_list('item_search_words_trgm'::regclass);

create or replace function item_search_typo_words(p_tenant integer, p_word text)
returns setof text language plpgsql stable parallel safe as $$
begin
  return query execute format(
    'select s.word from item_search_words s
      where s.tenant_id = %s and s.word %% %L and s.word <> %L and s.word ~ ''^[[:alpha:]]+$''
        and levenshtein_less_equal(s.word, %L, 1) <= 1',
    p_tenant, p_word, p_word, p_word);
end $$;

create or replace function item_search_query(
  p_tenant integer, p_words text[], p_prefix_last boolean, p_prefix_all boolean, p_typos boolean, p_weights text
) returns tsquery language plpgsql stable parallel safe as $$
begin
  return (with words as (
    select search_fold(w) as w, n, p_prefix_all or (n = cardinality(p_words) and p_prefix_last) as prefix
      from unnest(p_words) with ordinality as u (w, n)
  ), completed as (
    select n, w, prefix, c.words,
           prefix and w ~ '^[[:alpha:]]{4,}$' and c.found <= 64 as expanded
      from words
      cross join lateral (
        select array_agg(word) as words, count(*) as found
          from (select s.word from item_search_words s
                 where prefix and w ~ '^[[:alpha:]]{4,}$' and s.tenant_id = p_tenant
                   and s.word collate "C" > w and s.word collate "C" < w || chr(1114111)
                 limit 65) k
      ) c
  ), terms as (
    select n, '(' || string_agg(quote_literal(t) || case when t_suffix <> '' then ':' || t_suffix else '' end, ' | ') || ')' as term
      from (
        select n, w as t, case when prefix and not expanded then '*' else '' end || p_weights as t_suffix
          from completed
        union all
        select n, completion, p_weights
          from completed, unnest(words) as completion
         where expanded
        union all
        select n, typo, p_weights
          from words
          cross join lateral item_search_typo_words(p_tenant, w) as typo
         where p_typos and length(w) >= 5 and w ~ '^[[:alpha:]]+$'
        union all
        select n, s.word, p_weights
          from words
          cross join lateral generate_series(1, length(w) - 1) as i
          join item_search_words s
            on s.tenant_id = p_tenant
           and s.word = substr(w, 1, i - 1) || substr(w, i + 1, 1) || substr(w, i, 1) || substr(w, i + 2)
         where p_typos and length(w) >= 5 and w ~ '^[[:alpha:]]+$' and s.word <> w
      ) alternatives
     group by n
  )
  select item_search_scoped_query(p_tenant, to_tsquery('simple', string_agg(term, ' & ' order by n)))
    from terms having count(*) > 0);
end $$;

-- The existing rows are scoped; the index is built once over them afterwards.
drop index item_search_rows_text;
update item_search_rows
   set search_vector = item_search_scoped(tenant_id, search_vector),
       title_vector = item_search_scoped(tenant_id, title_vector);
create index item_search_rows_text on item_search_rows using gin (search_vector, title_vector);
analyze item_search_rows;
