-- Triggers (re)created only when their definition changed. `create or replace trigger` locks its
-- table against writes (SHARE ROW EXCLUSIVE) until the deploy's transaction ends, and on Citus
-- on every shard of it, one after another: a deploy that only changed a trigger function's body
-- held every tenant's writes for the whole of it. A function's new body needs no lock, so a
-- trigger statement runs only when its trigger is missing or its text differs from the text it
-- was made from, which its comment keeps (its MD5). sql-code.ts sends every `create trigger`
-- statement of the SQL code files through define_trigger; record_events_triggers does too.
create or replace function define_trigger(p_table text, p_name text, p_ddl text) returns boolean
language plpgsql as $$
declare
  v_made_from text := 'md5:' || md5(p_ddl);
begin
  if exists (select 1 from pg_trigger t
              where t.tgrelid = to_regclass(p_table) and t.tgname = p_name
                and obj_description(t.oid, 'pg_trigger') = v_made_from) then
    return false;
  end if;
  execute p_ddl;
  execute format('comment on trigger %I on %s is %L', p_name, p_table, v_made_from);
  return true;
end $$;

-- The three statement triggers (insert, update, delete) `<table>_<kind>_inserted|updated|deleted`
-- that call `p_function`, a trigger function that reads the statement's rows as `changed` (the
-- new rows, or the old ones of a delete); each made again only when it changed. How a table
-- records its events (record_events_triggers) and its change history (record_changes_triggers).
create or replace function define_statement_triggers(p_table text, p_function text, p_kind text)
    returns void
language plpgsql as $$
declare
  v_op text;
begin
  foreach v_op in array array['insert', 'update', 'delete'] loop
    perform define_trigger(p_table, format('%s_%s_%sd', p_table, p_kind, rtrim(v_op, 'e')), format(
      'create or replace trigger %I after %s on %I referencing %s table as changed
     for each statement execute function %I()',
      format('%s_%s_%sd', p_table, p_kind, rtrim(v_op, 'e')), v_op, p_table,
      case v_op when 'delete' then 'old' else 'new' end, p_function));
  end loop;
end $$;
