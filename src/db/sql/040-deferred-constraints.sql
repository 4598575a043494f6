-- Defers the deferrable constraints of the transaction that runs it, where it runs: called from a
-- statement on one tenant's shard (src/db/queries/deferred-constraints.ts), it defers them on the worker
-- that holds that tenant, which a plain `set constraints` on the Citus coordinator does not reach.
create or replace function defer_constraints() returns boolean
language plpgsql volatile as $$
begin
  set constraints all deferred;
  return true;
end $$;
