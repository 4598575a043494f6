-- Tenants: every other table carries tenant_id first in its key.
create table tenants (
  id integer generated always as identity primary key,
  name text not null unique,
  created_at timestamptz not null default now()
);
