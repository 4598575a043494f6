-- Storage (contract §5.4): assets and the blobs that hold their bytes.
--
-- storage_blobs is a global table (no tenant_id): a blob is content, named by its sha256, that
-- assets of any tenant may share; nothing about it is visible through the API except through
-- an asset of one's own tenant. touched_at is set whenever an upload is about to store the
-- blob; the collector removes a blob only once no asset uses it and it was not touched for a
-- grace period (see blob-collector.ts).
create table storage_blobs (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint not null check (size >= 0),
  touched_at timestamptz not null default now()
);
create index storage_blobs_touched on storage_blobs (touched_at);

create table assets (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  file_name text not null,
  mime_type text not null,
  family text not null check (family in ('image', 'video', 'document')),
  size bigint not null check (size >= 0),
  sha256 text not null references storage_blobs (sha256) deferrable initially immediate,
  -- The unguessable part of the AssetUrl (256 random bits, base64url).
  url_key text not null,
  created_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create unique index assets_url_key on assets (tenant_id, url_key);
-- The collector asks whether any asset of any tenant still uses a blob.
create index assets_sha256 on assets (sha256);
