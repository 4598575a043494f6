-- Idempotency keys (IETF httpapi Idempotency-Key draft): one row per key an app sent on a POST
-- or PATCH, per tenant and app. While the first request runs, the row holds its claim (a uuid
-- naming that request) and a lease (locked_until): a second request under the key gets 409, and
-- a row left by a server that died mid-request stops blocking the key once its lease is over.
-- When the request ends, the row keeps its answer (status, the headers that matter, the body
-- bytes) until expires_at, and a retry with the same fingerprint gets that answer again.
-- Rows go when their app or tenant goes, and a scheduled job prunes those past expires_at.
create table idempotency_keys (
  tenant_id integer not null,
  app_id uuid not null,
  key text not null,
  -- sha256 of the method, the URL, the identity token's device and the body (base64url).
  fingerprint text not null,
  claim uuid not null,
  -- Set while the request runs; null once its answer is stored.
  locked_until timestamptz,
  -- The stored answer: null while the request runs.
  status_code smallint,
  headers jsonb,
  body bytea,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (tenant_id, app_id, key),
  foreign key (tenant_id, app_id) references oauth_apps (tenant_id, id) on delete cascade
);
-- The pruning job's scan.
create index idempotency_keys_expiry on idempotency_keys (expires_at);
