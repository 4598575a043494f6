-- Blobs kept by tenant (docs/operations.md, "Citus", "Fault isolation"). storage_blobs was a
-- global table of content shared by every tenant: on Citus a reference table, so every upload
-- wrote every node and one worker down stopped every tenant's uploads. Its rows now belong to a
-- tenant ((tenant_id, sha256): equal bytes are one blob within a tenant, each tenant has its
-- own), distributed with the tenant's other rows, and the bytes of a new blob are stored under
-- its tenant (src/modules/storage/blob-store.ts). An upload writes its own worker only.
--
-- The bytes stored before stay where they were, under their hash alone: storage_shared_blobs
-- lists them, every tenant whose assets had them gets a row of its own, and reading a tenant's
-- blob falls back to them. The collector removes them once no asset has their hash
-- (blob-collector.ts). A blob that no asset used (waiting for the collector) keeps only its
-- shared row, and goes with it.
create table storage_shared_blobs (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$')
);
insert into storage_shared_blobs (sha256) select sha256 from storage_blobs;
-- Read and written by the blob collector alone, a job: on Citus a plain table of the coordinator,
-- where deleting a row needs no other node.
insert into coordinator_local_tables (table_name, reason) values
  ('storage_shared_blobs', 'the blobs stored before blobs were kept by tenant (migration 0310), '
     || 'read and deleted only by the blob collector, a job: as a reference table each of those '
     || 'deletes would be a two-phase commit on every node');

alter table assets drop constraint assets_sha256_fkey;
alter table storage_blobs rename to storage_blobs_before_0310;
alter index storage_blobs_pkey rename to storage_blobs_before_0310_pkey;
drop index storage_blobs_touched;

-- touched_at is set whenever an upload is about to store the blob; the collector removes a blob
-- only once no asset of its tenant uses it and it was not touched for a grace period. No foreign
-- key to tenants: a deleted tenant's blobs stay until the collector finds them unused and
-- removes their bytes with them (its assets go with the tenant).
create table storage_blobs (
  tenant_id integer not null,
  sha256 text not null constraint storage_blobs_sha256_check check (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint not null constraint storage_blobs_size_check check (size >= 0),
  touched_at timestamptz not null default now(),
  primary key (tenant_id, sha256)
);
-- The collector's order within a tenant.
create index storage_blobs_touched on storage_blobs (tenant_id, touched_at, sha256);

-- A Citus database whose tables are distributed already: this one is distributed now, with the
-- others (the foreign key from assets below needs it); elsewhere the migrations' distribution
-- step does it (src/db/citus/distribution.ts).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'citus') then
    if exists (select 1 from pg_dist_partition where logicalrelid = 'assets'::regclass) then
      perform create_distributed_table('storage_blobs', 'tenant_id', colocate_with => 'assets');
    end if;
  end if;
end $$;

insert into storage_blobs (tenant_id, sha256, size, touched_at)
select a.tenant_id, b.sha256, min(b.size), min(b.touched_at)
  from assets a join storage_blobs_before_0310 b on b.sha256 = a.sha256
 group by a.tenant_id, b.sha256;

alter table assets add constraint assets_sha256_fkey foreign key (tenant_id, sha256)
  references storage_blobs (tenant_id, sha256) deferrable initially immediate;
drop table storage_blobs_before_0310;
