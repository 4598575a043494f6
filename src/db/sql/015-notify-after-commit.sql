-- A NOTIFY on a channel once the calling transaction commits, sent the way the session asked
-- (its setting omni.notify_after_commit, set by the database handle of src/db), so that a
-- rolled-back transaction announces nothing:
--
--   'notify'  NOTIFY at once, delivered at commit. The embedded database (PGlite) has one session,
--             so there is no other commit for it to hold up.
--   'notice'  a notice, which the node-postgres pool answers with a NOTIFY of its own once the
--             transaction has committed (src/db/connection/commit-notifier.ts). On PostgreSQL a transaction
--             that sent a NOTIFY holds a lock of the whole server from before its commit record
--             until its end, disk flush included, so such commits run one at a time: a NOTIFY
--             in the writing transaction took an 8-client pgbench of one-row updates from about
--             1,300 to 250 commits/s on these machines.
--   unset     nothing: psql and other tools, and Citus's workers, where the triggers run (a
--             worker's NOTIFY reaches no listener on the coordinator, and one in a transaction
--             that wrote on two workers would fail its PREPARE TRANSACTION).
create or replace function notify_after_commit(p_channel text) returns void
language plpgsql as $$
begin
  case current_setting('omni.notify_after_commit', true)
    when 'notify' then
      perform pg_notify(p_channel, '');
    when 'notice' then
      raise notice using message = 'notify after commit: ' || p_channel;
    else
      null;
  end case;
end $$;
