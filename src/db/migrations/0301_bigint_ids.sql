-- Ids that never run out: every id column and its sequence becomes 64-bit. A 32-bit
-- sequence shared by all tenants ends at 2,147,483,647 rows of a table over the whole cluster,
-- and Citus draws a sequence's values on the worker that inserts only when it is a bigint
-- (each worker gets a range of its own: docs/design.md, "Citus"). The ids stay what they were;
-- the next one continues the sequence. tenant_id stays 32-bit: it is the distribution column of
-- every tenant table, which Citus does not let change type (docs/design.md, "Ids").
--
-- ids_to_bigint(table, columns) makes that change on one table; each module's migration calls it
-- for its own tables, as they call identity_to_sequence (0280). The columns change in one
-- ALTER TABLE (one rewrite of the table and its indexes, under an ACCESS EXCLUSIVE lock:
-- docs/operations.md, "64-bit ids"); integer[] columns become bigint[]. A column numbered by a
-- sequence gets a new bigint sequence of the same name, set to where the old one stopped: Citus
-- refuses ALTER SEQUENCE on a sequence a distributed table uses, and ALTER COLUMN TYPE on a
-- column whose default draws from one, so the old sequence goes first and the new one is made
-- the default after the type changed (made on every worker, with a range of its own, when the
-- table is distributed). Shared, so that no module depends on another's migrations.
create function ids_to_bigint(tbl regclass, cols text[]) returns void
language plpgsql as $$
declare
  col text;
  seq text;
  fresh text;
  last bigint;
  called boolean;
  col_type text;
  col_default text;
  numbered text[] := '{}';
  changes text[] := '{}';
begin
  foreach col in array cols loop
    select format_type(a.atttypid, null), pg_get_expr(d.adbin, d.adrelid) into col_type, col_default
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = tbl and a.attname = col and not a.attisdropped;
    if col_type is null then
      raise exception 'ids_to_bigint: % has no column %', tbl, col;
    end if;
    seq := pg_get_serial_sequence(tbl::text, col);
    if seq is not null then
      fresh := (select relname from pg_class where oid = seq::regclass) || '_bigint';
      execute format('select last_value, is_called from %s', seq) into last, called;
      execute format('create sequence %I as bigint', fresh);
      perform setval(quote_ident(fresh), last, called);
      execute format('alter table %s alter column %I drop default', tbl, col);
      execute format('drop sequence %s', seq);
      numbered := numbered || array[col, fresh];
      changes := changes || format('alter column %I type bigint', col);
    elsif col_type = 'integer' and col_default is null then
      changes := changes || format('alter column %I type bigint', col);
    elsif col_type = 'integer[]' and col_default is null then
      changes := changes || format('alter column %I type bigint[]', col);
    elsif col_type = 'integer[]' and col_default = '''{}''::integer[]' then
      changes := changes || format('alter column %I type bigint[], alter column %I set default ''{}''', col, col);
    else
      raise exception 'ids_to_bigint: %.% is % with default %', tbl, col, col_type, col_default;
    end if;
  end loop;
  execute format('alter table %s %s', tbl, array_to_string(changes, ', '));
  -- Owned before it is the default: Citus refuses OWNED BY on a sequence it has distributed.
  for i in 1 .. coalesce(cardinality(numbered), 0) by 2 loop
    execute format('alter sequence %I owned by %s.%I', numbered[i + 1], tbl, numbered[i]);
    execute format('alter table %s alter column %I set default nextval(%L::regclass)',
                   tbl, numbered[i], numbered[i + 1]);
    execute format('alter sequence %I rename to %I', numbered[i + 1], left(numbered[i + 1], -length('_bigint')));
  end loop;
end $$;
