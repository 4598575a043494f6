-- Bulk catalog import and export jobs (docs/api.md, "Catalog import and export").
--
-- An import reads a file kept as an asset (a body posted to the route is stored as one first, so
-- that the job survives a restart) and writes it in chunks: each chunk's items, the chunk's
-- per-row results and the job's progress (records_done) commit in one transaction, so a job
-- resumed after a crash continues after the last committed record and writes no row twice.
-- A running job holds a lease (lease_token until lease_until), renewed while it runs; every
-- chunk's commit checks it, so two workers can never both write a job's rows. A job whose lease
-- ran out (its process died) is picked up again by any instance.
create table catalog_imports (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  format text not null check (format in ('jsonl', 'csv')),
  error_policy text not null check (error_policy in ('RejectAll', 'SkipFailedRows')),
  create_missing boolean not null,
  source_asset_id integer not null,
  source_bytes bigint not null,
  state text not null default 'Queued'
    check (state in ('Queued', 'Running', 'Succeeded', 'Failed', 'Cancelled')),
  -- RejectAll reads the file twice: first to validate every record (nothing written), then to write.
  phase text not null default 'Writing' check (phase in ('Validating', 'Writing')),
  records_done bigint not null default 0,
  lines_done bigint not null default 0,
  bytes_done bigint not null default 0,
  rows_written bigint not null default 0,
  rows_failed bigint not null default 0,
  error text,
  lease_token uuid,
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  primary key (tenant_id, id)
);
-- The unfinished jobs, which every instance looks at for an expired lease.
create index catalog_imports_unfinished on catalog_imports (lease_until) where state in ('Queued', 'Running');

-- Per-row results, one JSONL text per chunk (first_record orders them): a 1M-row import keeps
-- a thousand rows here, not a million.
create table catalog_import_results (
  tenant_id integer not null,
  import_id integer not null,
  first_record bigint not null,
  body text not null,
  primary key (tenant_id, import_id, first_record),
  foreign key (tenant_id, import_id) references catalog_imports (tenant_id, id) on delete cascade
);

-- Variant groups of an import: the default item (the group's first record in the file) of each
-- GroupKey, so that a later chunk's variants join it.
create table catalog_import_groups (
  tenant_id integer not null,
  import_id integer not null,
  group_key text not null,
  default_item_id integer not null,
  primary key (tenant_id, import_id, group_key),
  foreign key (tenant_id, import_id) references catalog_imports (tenant_id, id) on delete cascade
);

-- The SKUs seen by a RejectAll validation pass (a SKU twice in the file fails its second record
-- even though nothing is written yet); emptied when the pass ends.
create table catalog_import_skus (
  tenant_id integer not null,
  import_id integer not null,
  sku text not null,
  primary key (tenant_id, import_id, sku),
  foreign key (tenant_id, import_id) references catalog_imports (tenant_id, id) on delete cascade
);

-- An export writes the matching items to a file and stores it as an asset.
create table catalog_exports (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  format text not null check (format in ('jsonl', 'csv')),
  filter jsonb not null,
  base_url text not null,
  state text not null default 'Queued'
    check (state in ('Queued', 'Running', 'Succeeded', 'Failed')),
  items_written bigint not null default 0,
  asset_id integer,
  asset_url text,
  error text,
  lease_token uuid,
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  primary key (tenant_id, id)
);
create index catalog_exports_unfinished on catalog_exports (lease_until) where state in ('Queued', 'Running');
