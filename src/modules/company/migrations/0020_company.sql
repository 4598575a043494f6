-- Company (contract §5.5): stores with a location, device types, physical devices (in a store
-- or none) and the logical devices registered to them, with their metadata. Every key starts
-- with tenant_id. updated_at is each row's version behind its ETag.
create extension if not exists cube;
create extension if not exists earthdistance;
create extension if not exists btree_gist;

create table stores (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  name text not null,
  description text,
  address text,
  longitude double precision not null check (longitude between -180 and 180),
  latitude double precision not null check (latitude between -90 and 90),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
-- The nearest store without scanning them all: a GiST index on the store's point on the sphere
-- (earthdistance's 3-D cube), searched nearest-first (KNN, the <-> operator) within a tenant.
create index stores_location on stores using gist (tenant_id, ll_to_earth(latitude, longitude));

create table device_types (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  description text not null,
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);

create table physical_devices (
  tenant_id integer not null references tenants (id) on delete cascade,
  id text not null,
  description text,
  store_id integer,
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, store_id) references stores (tenant_id, id)
);
create index physical_devices_store on physical_devices (tenant_id, store_id);

create table logical_devices (
  tenant_id integer not null references tenants (id) on delete cascade,
  id text not null,
  physical_device_id text not null,
  description text not null,
  device_type_id integer,
  expiration_date timestamptz,
  -- [{"Key": …, "Value": …}] in the order they were added; keys unique per device.
  metadata jsonb not null default '[]',
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, physical_device_id) references physical_devices (tenant_id, id)
    on delete cascade,
  foreign key (tenant_id, device_type_id) references device_types (tenant_id, id)
);
create index logical_devices_physical on logical_devices (tenant_id, physical_device_id, id);
create index logical_devices_type on logical_devices (tenant_id, device_type_id);
