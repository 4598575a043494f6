-- Invitations: a member is invited by e-mail address (the e-mail goes through the notification
-- outbox) and chooses a username and a password through the link the e-mail carries. The link's
-- token is single-use and expires; only its SHA-256 hash is kept. An invitation row lives until
-- it is accepted (the member is made and the row deleted in one transaction) or revoked; an
-- expired one stays listed (so that it can be sent again) until the prune job removes it.
create table member_invitations (
  tenant_id integer not null references tenants (id) on delete cascade,
  id uuid not null,
  -- Kept lowercase; one open invitation per address (a new one replaces an expired one).
  email text not null,
  -- The name the inviter gave (the invitee may change it when accepting), or null.
  name text,
  roles text[] not null,
  token_hash text not null,
  -- The inviting member's username at the time, or null when an app's token invited.
  invited_by text,
  created_at timestamptz not null default now(),
  -- When the e-mail was last sent (creation or resend); a resend makes a new token.
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (tenant_id, id)
);
create unique index member_invitations_email on member_invitations (tenant_id, email);
create unique index member_invitations_token on member_invitations (tenant_id, token_hash);
create index member_invitations_list on member_invitations (tenant_id, created_at, id);

-- A member made from an invitation keeps the address it was invited at (unique in the tenant),
-- so that the same address cannot be invited twice; members made otherwise have none.
alter table members add column email text;
create unique index members_email on members (tenant_id, email) where email is not null;
