-- What the sample seeder made in a tenant (src/modules/sample): `omni sample remove` removes these
-- and nothing else, and a second `omni sample seed` makes only what is missing. `kind` names the
-- resource, `resource_id` its id in the tenant (text: device ids are), `key` the sample's own name
-- of it (an item's SKU, an image's file name, a store's city), null where the sample has none.
create table sample_records (
  tenant_id integer not null references tenants(id) on delete cascade,
  kind text not null,
  resource_id text not null,
  key text,
  created_at timestamptz not null default now(),
  primary key (tenant_id, kind, resource_id)
);
create index sample_records_key on sample_records (tenant_id, kind, key);
