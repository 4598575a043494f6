-- Each OAuth app keeps its wire-shape JSON (contract §5.1) in `document`, built by the database
-- whenever the row is written: the app fetch, which integrators call with every token they hold,
-- passes it through (docs/design.md). The secret is never in it (only the create and rotation
-- answers show one). The type descriptions are those of src/modules/oauth/app-types.ts; a test
-- compares the two for every type. The app's events (the feed: src/db/sql/020-event-feed.sql)
-- carry the same document.

-- The row type of `oauth_apps` was its argument before it ran on shards.
drop function if exists app_document(oauth_apps);
create or replace function app_document(a anyelement) returns text
language sql stable as $$
  select '{"ApplicationId":' || json_text((a).id) || ',"ApplicationSecret":null,"Name":' || json_text((a).name) ||
    ',"Description":' || json_text((a).description) || ',"IsPredefined":' || json_text((a).is_predefined) ||
    ',"ApplicationTypeId":' || json_text((a).application_type_id) ||
    ',"ApplicationTypeDescription":' || json_text(case (a).application_type_id
      when 1 then 'Consumer' when 2 then 'Private' when 3 then 'Management' when 4 then 'Device' end) ||
    ',"CreatedDate":"' || to_char((a).created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
$$;

create or replace function oauth_apps_build_document() returns trigger
language plpgsql as $$
begin
  new.document := app_document(new);
  if tg_op = 'UPDATE' and new.secret_hash is distinct from old.secret_hash then
    new.secret_set_at := now();
  end if;
  return new;
end $$;

create or replace trigger oauth_apps_document before insert or update on oauth_apps
  for each row execute function oauth_apps_build_document();

create or replace function events_of_apps() returns trigger
language plpgsql as $$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text), array_agg(document) into v_tenants, v_ids, v_data from changed;
  perform record_events('app', tg_op, null, v_tenants, v_ids, v_data);
  -- The history's entry (record_events wrote it with the document) shows in place of the secret
  -- a marker that changes with it, so that a rotation is a change there; never the secret.
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(replace(document, '"ApplicationSecret":null',
           '"ApplicationSecret":' || json_text(case when secret_set_at is null then 'set'
             else 'set ' || to_char(secret_set_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end)))
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('app', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $$;

select record_events_triggers('oauth_apps', 'events_of_apps');
