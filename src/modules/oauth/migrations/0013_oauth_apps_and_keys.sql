-- OAuth apps (contract §5.1). Only a hash of the secret is kept; secret_version is carried in
-- every token so that a rotated secret invalidates the tokens issued before it.
create table oauth_apps (
  tenant_id integer not null references tenants (id) on delete cascade,
  id uuid not null,
  name text not null,
  description text,
  application_type_id smallint not null,
  is_predefined boolean not null default false,
  secret_hash text not null,
  secret_version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create index oauth_apps_list on oauth_apps (tenant_id, created_at, id);

-- Token signing keys are the platform's, not a tenant's: every tenant's tokens carry its own
-- aud/iss, and one JWKS serves them all. retired_at is set on rotation; a retired key still
-- verifies until the longest-lived token it signed has expired.
create table signing_keys (
  kid text primary key,
  algorithm text not null,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

-- Revoked tokens (RFC 7009), kept until they would have expired anyway.
create table revoked_tokens (
  tenant_id integer not null references tenants (id) on delete cascade,
  jti uuid not null,
  expires_at timestamptz not null,
  revoked_at timestamptz not null default now(),
  primary key (tenant_id, jti)
);

-- What other instances must learn quickly: a token revoked, an app deleted or its secret
-- rotated. Each instance polls past the last seq it saw and drops what it had cached.
create table auth_invalidations (
  seq bigint generated always as identity primary key,
  tenant_id integer not null,
  app_id uuid not null,
  jti uuid,
  created_at timestamptz not null default now()
);

-- Failed client authentications at the token endpoint, per client id and source address,
-- so that guessing secrets is slowed down on every instance alike.
create table client_auth_failures (
  tenant_id integer not null references tenants (id) on delete cascade,
  client_id text not null,
  source text not null,
  failures integer not null,
  first_failed_at timestamptz not null default now(),
  locked_until timestamptz,
  primary key (tenant_id, client_id, source)
);
