-- Storage (contract §5.4): assets and their relations to items, brands and categories (§5.3).
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

-- One table per related entity, so that each has a real foreign key: deleting the item, brand
-- or category removes its relations (cascade); an asset cannot be deleted while related
-- (no action), except by the service's forced delete, which removes the relations first. The
-- no-action references are deferrable like every other (0004): a tenant's delete checks them
-- once its whole cascade is done.
create table item_assets (
  tenant_id integer not null references tenants (id) on delete cascade,
  item_id integer not null,
  asset_id integer not null,
  kind text not null check (kind in ('image', 'video', 'document')),
  is_default boolean not null default false,
  primary key (tenant_id, item_id, asset_id),
  foreign key (tenant_id, item_id) references items (tenant_id, id) on delete cascade,
  foreign key (tenant_id, asset_id) references assets (tenant_id, id)
    deferrable initially immediate
);
create unique index item_assets_default on item_assets (tenant_id, item_id, kind) where is_default;
create index item_assets_asset on item_assets (tenant_id, asset_id);

create table brand_assets (
  tenant_id integer not null references tenants (id) on delete cascade,
  brand_id integer not null,
  asset_id integer not null,
  kind text not null check (kind in ('image', 'video', 'document')),
  is_default boolean not null default false,
  primary key (tenant_id, brand_id, asset_id),
  foreign key (tenant_id, brand_id) references brands (tenant_id, id) on delete cascade,
  foreign key (tenant_id, asset_id) references assets (tenant_id, id)
    deferrable initially immediate
);
create unique index brand_assets_default on brand_assets (tenant_id, brand_id, kind) where is_default;
create index brand_assets_asset on brand_assets (tenant_id, asset_id);

create table category_assets (
  tenant_id integer not null references tenants (id) on delete cascade,
  category_id integer not null,
  asset_id integer not null,
  kind text not null check (kind in ('image', 'video', 'document')),
  is_default boolean not null default false,
  primary key (tenant_id, category_id, asset_id),
  foreign key (tenant_id, category_id) references categories (tenant_id, id) on delete cascade,
  foreign key (tenant_id, asset_id) references assets (tenant_id, id)
    deferrable initially immediate
);
create unique index category_assets_default on category_assets (tenant_id, category_id, kind)
  where is_default;
create index category_assets_asset on category_assets (tenant_id, asset_id);
