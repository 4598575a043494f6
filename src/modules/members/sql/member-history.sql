-- The change history (src/db/sql/025-change-history.sql) of members and invitations, with their
-- data as the API shows them, and never a password hash or an invitation's token: "Password" is a
-- marker that changes when the password does (when it was set, kept in password_set_at by the
-- trigger below), and an invitation's token changes with its SentDate. Roles by id (their
-- descriptions are the server's, src/modules/members/roles.ts).

create or replace function member_password_set_at() returns trigger
language plpgsql as $$
begin
  if new.password_hash is distinct from old.password_hash then
    new.password_set_at := now();
  end if;
  return new;
end $$;

create or replace trigger members_password_set_at before update on members
  for each row execute function member_password_set_at();

create or replace function member_roles_json(p_roles text[]) returns json
language sql immutable as $$
  select coalesce(json_agg(json_build_object('Id', r) order by r), '[]'::json) from unnest(p_roles) as r
$$;

create or replace function member_data(p_id uuid, p_username text, p_name text, p_email text,
    p_roles text[], p_must_change boolean, p_password_set_at timestamptz) returns text
language sql immutable as $$
  select json_build_object('Id', p_id, 'Username', p_username, 'Name', p_name, 'Email', p_email,
    'Roles', member_roles_json(p_roles), 'MustChangePassword', p_must_change,
    'Password', case when p_password_set_at is null then 'set'
      else 'set ' || to_char(p_password_set_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end)::text
$$;

create or replace function changes_of_members() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(member_data(id, username, name, email, roles, must_change_password, password_set_at))
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('member', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

create or replace function changes_of_invitations() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Email', email, 'Name', name,
           'Roles', member_roles_json(roles), 'InvitedBy', invited_by,
           'CreatedDate', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'SentDate', to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'ExpirationDate', to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('invitation', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_changes_triggers(t.tbl, t.fn) from (values
  ('members', 'changes_of_members'),
  ('member_invitations', 'changes_of_invitations')) as t (tbl, fn);
