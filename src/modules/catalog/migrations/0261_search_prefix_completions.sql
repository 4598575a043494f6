-- The last word of a query matches as a prefix (as the user types). `word:*` in a tsquery is a
-- partial match in the GIN index: it gathers the postings of every lexeme with that prefix, of
-- every tenant, into a bitmap before anything else, and then cannot skip through them (measured
-- at 100k items: 'classic:*' 18 ms against 10 ms for 'classic'; with a sample mark, 8.5 ms
-- against 1.6 ms). So a prefix of 4+ letters with at most 64 completions among the tenant's
-- words becomes those words, matched exactly ('classic' | 'classics'); a shorter one, one with
-- a digit, or one with more completions stays a partial match.
-- For that to be exact, the tenant's word list must hold every lexeme that can start with such a
-- prefix: the lexemes whose first four characters are letters (until now it kept only the
-- letters-only ones, for the typos; 'lamp2000' joins it, and the typo candidates stay
-- letters-only). The completions are looked up by a C-collation index: a prefix range in byte
-- order is right whatever the database's collation.
create index item_search_words_prefix on item_search_words (tenant_id, (word collate "C"));

create or replace function item_search_words_from_new_rows() returns trigger language plpgsql as $$
begin
  insert into item_search_words (tenant_id, word)
    select distinct n.tenant_id, w from new_rows n, unnest(tsvector_to_array(n.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     order by 1, 2
    on conflict do nothing;
  return null;
end $$;

create or replace function item_search_words_from_row() returns trigger language plpgsql as $$
begin
  insert into item_search_words (tenant_id, word)
    select distinct new.tenant_id, w from unnest(tsvector_to_array(new.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     order by 2
    on conflict do nothing;
  return null;
end $$;

insert into item_search_words (tenant_id, word)
  select distinct i.tenant_id, w from items i, unnest(tsvector_to_array(i.search_vector)) w
   where w ~ '^[[:alpha:]]{4}' and w !~ '^[[:alpha:]]+$'
  on conflict do nothing;

create or replace function item_search_query(
  p_tenant integer, p_words text[], p_prefix_last boolean, p_prefix_all boolean, p_typos boolean, p_weights text
) returns tsquery language sql stable parallel safe as $$
  with words as (
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
        select n, s.word, p_weights
          from words, item_search_words s
         where p_typos and length(w) >= 5 and w ~ '^[[:alpha:]]+$'
           and s.tenant_id = p_tenant and s.word % w and s.word <> w and s.word ~ '^[[:alpha:]]+$'
           and levenshtein_less_equal(s.word, w, 1) <= 1
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
  select to_tsquery('simple', string_agg(term, ' & ' order by n))
    from terms having count(*) > 0
$$;
