-- Keys numbered by a sequence default instead of an identity column (docs/design.md, "Citus"):
-- Citus refuses identity columns, of any type, on every path that converts a table (a table with
-- a foreign key to a reference table becomes a "Citus local" table as it is made, and making that
-- table distributed is such a path: "cannot complete operation on a table with identity
-- column"), while a column whose default is nextval() goes through every one of them. The
-- numbers stay what they were: same column type, same sequence name, the next value the identity
-- would have given.
--
-- identity_to_sequence(table, column) makes that change on one column; each module's migration
-- calls it for its own tables, as they call add_creation_sequence. Shared, so that no module
-- depends on another's migrations.
create function identity_to_sequence(tbl regclass, col text) returns void
language plpgsql as $$
declare
  seq text := pg_get_serial_sequence(tbl::text, col);
  col_type text;
  last bigint;
  called boolean;
begin
  select format_type(a.atttypid, null) into col_type
    from pg_attribute a where a.attrelid = tbl and a.attname = col;
  execute format('select last_value, is_called from %s', seq) into last, called;
  execute format('alter table %s alter column %I drop identity', tbl, col);
  execute format('create sequence %s as %s owned by %s.%I', seq, col_type, tbl, col);
  perform setval(seq, last, called);
  execute format('alter table %s alter column %I set default nextval(%L::regclass)', tbl, col, seq);
end $$;

-- Lists in creation order number their rows from a sequence default too (0269).
create or replace function add_creation_sequence(tbl regclass, list_index text) returns void
language plpgsql as $$
declare
  seq text := tbl::text || '_created_seq_seq';
begin
  execute format('alter table %s add column created_seq bigint', tbl);
  execute format('alter table %s disable trigger user', tbl);
  execute format(
    'update %1$s t set created_seq = o.n
       from (select tenant_id, id, row_number() over (order by created_at, id) as n from %1$s) o
      where t.tenant_id = o.tenant_id and t.id = o.id', tbl);
  execute format('alter table %s enable trigger user', tbl);
  execute format('alter table %s alter column created_seq set not null', tbl);
  execute format('create sequence %I as bigint owned by %s.created_seq', seq, tbl);
  execute format('select setval(%L, coalesce(max(created_seq), 0) + 1, false) from %s', seq, tbl);
  execute format('alter table %s alter column created_seq set default nextval(%L::regclass)', tbl, seq);
  execute format('drop index %I', list_index);
  execute format('create index %I on %s (tenant_id, created_seq)', list_index, tbl);
end $$;

-- The event feed's own key (0100).
select identity_to_sequence('events', 'id');

-- Global tables that stay on the coordinator of a Citus cluster instead of becoming reference
-- tables (src/db/citus/distribution.ts; docs/operations.md, "Citus"): each module that owns such a
-- table names it here, with the reason. Every other global table (no tenant_id) becomes a
-- reference table, and every table with tenant_id is distributed by it.
create table coordinator_local_tables (
  table_name text primary key,
  reason text not null
);
-- The foreign keys that `omni distribute` dropped and has not made again yet: kept here so that a
-- run that stopped half-way makes them when it is run again (src/db/citus/distribution.ts).
create table distribution_pending_keys (
  table_name text not null,
  name text not null,
  definition text not null,
  primary key (table_name, name)
);

insert into coordinator_local_tables (table_name, reason) values
  ('coordinator_local_tables', 'read only by the distribution step, on the coordinator'),
  ('distribution_pending_keys', 'used only by omni distribute, on the coordinator'),
  ('sql_code_files', 'the SQL code files applied, read only by migrations, on the coordinator'),
  ('job_runs', 'bookkeeping of job runs beside pg-boss''s own tables, which stay on the coordinator: '
     || 'a heartbeat every few seconds per running job, never joined with tenant data');
