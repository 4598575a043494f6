-- Each OAuth app keeps its wire-shape JSON (contract §5.1) in `document`, built by the database
-- whenever the row is written: the app fetch, which integrators call with every token they
-- hold, passes it through as item reads pass theirs (docs/design.md). The secret is never in it
-- (only the create and rotation answers show one). The application type descriptions are those
-- of src/modules/oauth/app-types.ts; a test compares the two for every type.

alter table oauth_apps add column document text;

create function app_document(a oauth_apps) returns text language sql stable as $$
  select '{"ApplicationId":' || json_text(a.id) || ',"ApplicationSecret":null,"Name":' || json_text(a.name) ||
    ',"Description":' || json_text(a.description) || ',"IsPredefined":' || json_text(a.is_predefined) ||
    ',"ApplicationTypeId":' || json_text(a.application_type_id) ||
    ',"ApplicationTypeDescription":' || json_text(case a.application_type_id
      when 1 then 'Consumer' when 2 then 'Private' when 3 then 'Management' when 4 then 'Device' end) ||
    ',"CreatedDate":"' || to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
$$;

create function oauth_apps_build_document() returns trigger language plpgsql as $$
begin
  new.document := app_document(new);
  return new;
end $$;
create trigger oauth_apps_document before insert or update on oauth_apps
  for each row execute function oauth_apps_build_document();

update oauth_apps set document = app_document(oauth_apps);
alter table oauth_apps alter column document set not null;
