-- A swapped pair of adjacent letters is one typo, as search engines count it (Damerau: "lantren"
-- finds "lantern"), besides one insertion, deletion or substitution. Levenshtein counts a swap as
-- two edits, and the trigram candidates often miss it (a swap changes up to four trigrams of a
-- word: "lanrten" is 0.23 similar to "lantern", under pg_trgm's 0.3). So the word's swaps are
-- written out (one per adjacent pair) and looked up exactly in the tenant's words, by their key.
create or replace function item_search_query(
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
