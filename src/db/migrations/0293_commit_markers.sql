-- On a failover pair (DATABASE_URL naming several hosts) every transaction that wrote leaves a
-- marker row just before its COMMIT (src/db/failover/commit-outcomes.ts). When the COMMIT's answer is lost
-- with the primary, the node that takes writes next holds the marker if and only if the
-- transaction committed there. A transaction id could not tell that: a promoted standby gives
-- again the ids of the transactions it never received, so asking it about one may answer for
-- another transaction. A marker is needed only until that question is asked (seconds); markers
-- older than ten minutes are deleted. Global, and on Citus kept on the coordinator.
create table commit_markers (
  token uuid primary key,
  marked_at timestamptz not null default now()
);
-- Markers are inserted in time order: a BRIN index finds the old ones to delete for almost no
-- cost per insert.
create index commit_markers_marked_at on commit_markers using brin (marked_at);

insert into coordinator_local_tables (table_name, reason) values
  ('commit_markers', 'written by every write transaction on a failover pair: as a reference table '
     || 'each of those writes would be a two-phase commit on every node');
