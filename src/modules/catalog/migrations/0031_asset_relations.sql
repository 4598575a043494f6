-- Asset relations (contract §5.3): which assets an item, brand or category shows. The catalog
-- owns them; they refer to storage's assets one way (storage knows nothing of the catalog).
--
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
