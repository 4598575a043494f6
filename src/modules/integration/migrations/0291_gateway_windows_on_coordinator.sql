-- The gateway's rate windows stay on the coordinator of a Citus cluster (src/db/migrations/0280).
insert into coordinator_local_tables (table_name, reason) values
  ('gateway_rate_windows', 'a counter per global service name written by every gateway request: '
     || 'as a reference table each of those writes would be a two-phase commit on every node');
