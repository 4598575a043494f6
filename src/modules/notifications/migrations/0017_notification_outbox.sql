-- Notifications (e-mail) kept until delivered; delivery is retried and never loses the record.
create table notification_outbox (
  id bigint generated always as identity primary key,
  tenant_id integer references tenants (id) on delete set null,
  recipient text not null,
  subject text not null,
  body text not null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index notification_outbox_pending on notification_outbox (created_at) where sent_at is null;
