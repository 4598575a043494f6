-- The item and store a log names, 64-bit as the catalog's and the company's ids are
-- (src/db/migrations/0301); the log's own id was bigint already. On the partitioned table: every
-- partition changes with it.
select ids_to_bigint('analytics_logs', '{item_id,store_id}');
