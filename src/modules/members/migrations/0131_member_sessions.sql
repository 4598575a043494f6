-- Browser sign-in (OAuth 2.0 authorization code with PKCE). Codes and refresh tokens
-- are random and kept only as SHA-256 hashes.

-- Authorization codes: single use, short-lived, bound to client, redirect URI and the PKCE
-- challenge. A used code stays (used_at, family_id) until it expires, so that presenting it
-- again revokes what it was exchanged for (RFC 6749 §4.1.2).
create table authorization_codes (
  tenant_id integer not null references tenants (id) on delete cascade,
  code_hash text not null,
  client_id text not null,
  redirect_uri text not null,
  code_challenge text not null,
  member_id uuid not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  family_id uuid,
  primary key (tenant_id, code_hash),
  foreign key (tenant_id, member_id) references members (tenant_id, id) on delete cascade
);

-- Refresh tokens, rotated on every use: each belongs to a family (one sign-in). A spent token
-- presented again revokes the whole family, with the access tokens issued in it
-- (access_jti, access_expires_at). Sign-out deletes the family the same way.
create table refresh_tokens (
  tenant_id integer not null references tenants (id) on delete cascade,
  token_hash text not null,
  family_id uuid not null,
  client_id text not null,
  member_id uuid not null,
  access_jti uuid not null,
  access_expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  spent_at timestamptz,
  primary key (tenant_id, token_hash),
  foreign key (tenant_id, member_id) references members (tenant_id, id) on delete cascade
);
create index refresh_tokens_family on refresh_tokens (tenant_id, family_id);
create index refresh_tokens_member on refresh_tokens (tenant_id, member_id);
create index authorization_codes_member on authorization_codes (tenant_id, member_id);
