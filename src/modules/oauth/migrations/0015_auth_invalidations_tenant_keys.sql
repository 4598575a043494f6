-- Ready to shard by tenant (Citus's distribution rule): every table of tenant data has tenant_id,
-- not null, in its primary key, every unique constraint and index, and every foreign key.
-- test/db/tenant-keys.test.ts reads the schema and holds every table to it.

-- Invalidations: keyed by tenant; app_id null voids every token of a tenant (it was deleted).
-- Instances poll them by seq across tenants, so seq keeps an index of its own.
alter table auth_invalidations drop constraint auth_invalidations_pkey;
alter table auth_invalidations add primary key (tenant_id, seq);
alter table auth_invalidations alter column app_id drop not null;
create index auth_invalidations_seq on auth_invalidations (seq);
