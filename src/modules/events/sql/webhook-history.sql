-- The change history (src/db/sql/025-change-history.sql) of webhook subscriptions, with their
-- data as the API shows them, and never their signing secret: "Secret" is a marker that changes
-- when the secret does (set with the subscription, then each rotation's).
--
-- The dispatcher moves a subscription's cursor with every batch it fans out: an update that
-- changes nothing the API shows is no change of the subscription, so the update trigger compares
-- each row's data before and after and records only those that differ.

create or replace function webhook_subscription_data(p_id bigint, p_url text, p_event_types text[],
    p_description text, p_owner_email text, p_enabled boolean, p_disabled_reason text,
    p_failing_since timestamptz, p_previous_expires timestamptz, p_created_at timestamptz,
    p_updated_at timestamptz) returns text
language sql immutable as $$
  select json_build_object('Id', p_id, 'Url', p_url, 'EventTypes', p_event_types,
    'Description', p_description, 'OwnerEmail', p_owner_email, 'Enabled', p_enabled,
    'DisabledReason', p_disabled_reason,
    'FailingSince', to_char(p_failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'Secret', case when p_previous_expires is null then 'set with the subscription'
      else 'rotated; the previous secret expires '
        || to_char(p_previous_expires at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end,
    'PreviousSecretExpiresDate', to_char(p_previous_expires at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'CreatedDate', to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'ModifiedDate', to_char(p_updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

-- Inserts and deletes: every row is a change.
create or replace function changes_of_webhook_subscriptions() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(webhook_subscription_data(id, url, event_types, description, owner_email, enabled,
           disabled_reason, failing_since, previous_secret_expires_at, created_at, updated_at))
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('webhook_subscription', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

-- Updates: the rows whose data changed (`previous`: the statement's rows before it).
create or replace function changes_of_webhook_subscription_updates() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(n.tenant_id), array_agg(n.id::text), array_agg(n.data)
    into v_tenants, v_ids, v_data
    from (select tenant_id, id, webhook_subscription_data(id, url, event_types, description,
                   owner_email, enabled, disabled_reason, failing_since, previous_secret_expires_at,
                   created_at, updated_at) as data
            from changed) n
    join (select tenant_id, id, webhook_subscription_data(id, url, event_types, description,
                   owner_email, enabled, disabled_reason, failing_since, previous_secret_expires_at,
                   created_at, updated_at) as data
            from previous) o on o.tenant_id = n.tenant_id and o.id = n.id
   where o.data is distinct from n.data;
  if v_ids is not null then
    perform record_changes('webhook_subscription', tg_op, null, v_tenants, v_ids, v_data);
  end if;
  return null;
end $$;

create or replace trigger webhook_subscriptions_changes_inserted after insert on webhook_subscriptions
  referencing new table as changed
  for each statement execute function changes_of_webhook_subscriptions();

create or replace trigger webhook_subscriptions_changes_updated after update on webhook_subscriptions
  referencing old table as previous new table as changed
  for each statement execute function changes_of_webhook_subscription_updates();

create or replace trigger webhook_subscriptions_changes_deleted after delete on webhook_subscriptions
  referencing old table as changed
  for each statement execute function changes_of_webhook_subscriptions();
