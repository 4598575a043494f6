-- References inside a tenant's data (an item's brand, a price's type …) refuse deletes at once,
-- but can be deferred to the end of a transaction: deleting a tenant removes all its rows in one
-- cascade whose order PostgreSQL does not fix, so it checks them only once the cascade is done.
do $$
declare
  c record;
begin
  for c in
    select conrelid::regclass as tbl, conname from pg_constraint
     where contype = 'f' and confdeltype = 'a' and connamespace = 'public'::regnamespace
  loop
    execute format('alter table %s alter constraint %I deferrable initially immediate', c.tbl, c.conname);
  end loop;
end $$;
