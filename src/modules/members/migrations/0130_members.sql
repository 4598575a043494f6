-- Members: the people who sign in to the console. Usernames are kept lowercase and
-- unique per tenant; only an argon2id hash of the password is kept. security_version moves on
-- every change of password or roles and is carried in the member's access tokens (`ver`), so
-- such a change ends the tokens issued before. updated_at is the row version behind the ETag.
create table members (
  tenant_id integer not null references tenants (id) on delete cascade,
  id uuid not null,
  username text not null,
  name text not null,
  password_hash text not null,
  -- A password the server made (tenant creation, `omni member create`): shown once, and the
  -- member must choose another at the first sign-in.
  must_change_password boolean not null default false,
  roles text[] not null,
  security_version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create unique index members_username on members (tenant_id, username);
create index members_list on members (tenant_id, created_at, id);

-- Failed sign-ins per username and per client address, counted in the database so that every
-- instance sees the same counts (brute-force protection). Unknown usernames are counted too,
-- so a lock tells nothing about whether a username exists.
create table member_signin_failures (
  tenant_id integer not null references tenants (id) on delete cascade,
  kind text not null check (kind in ('username', 'address')),
  key text not null,
  failures integer not null,
  first_failed_at timestamptz not null default now(),
  locked_until timestamptz,
  primary key (tenant_id, kind, key)
);
