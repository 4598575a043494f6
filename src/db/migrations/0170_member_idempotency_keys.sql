-- Idempotency keys of console members (a member's token names the console as its client, not an
-- app, so its keys cannot live in idempotency_keys, whose app_id is an app's uuid). The same rows
-- as idempotency_keys (migration 0110), per tenant and member: a member's key is never shared
-- with, replayed for or in conflict with another member's or an app's. Rows go with their member
-- (deleting a member, or its tenant, deletes them), and the pruning job deletes those past
-- expires_at. A table of its own, so this migration leaves idempotency_keys and every key in it
-- as they were: no rewrite, no lock on it, nothing to move.
create table member_idempotency_keys (
  tenant_id integer not null,
  member_id uuid not null,
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
  primary key (tenant_id, member_id, key),
  foreign key (tenant_id, member_id) references members (tenant_id, id) on delete cascade
);
-- The pruning job's scan.
create index member_idempotency_keys_expiry on member_idempotency_keys (expires_at);
