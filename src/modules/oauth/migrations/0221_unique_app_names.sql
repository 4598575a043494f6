-- App names are unique within a tenant, whatever the case and surrounding spaces (409
-- DuplicateAppName): people tell apps apart by name in every list, as they do brands.
-- Apps that already share a name keep the oldest one's name as it is (the predefined app first);
-- each other one gets the start of its ApplicationId appended ("Kiosk (3f2a9c1b)"), which no
-- existing name can equal in practice and which points at the id shown beside it. Renaming moves
-- the app's row version (its ETag) and records an app.updated event, as any rename does.
with ranked as (
  select tenant_id, id,
         row_number() over (partition by tenant_id, lower(btrim(name))
                            order by is_predefined desc, created_at, id) as place
    from oauth_apps
)
update oauth_apps a
   set name = left(a.name, 256 - 11) || ' (' || left(a.id::text, 8) || ')',
       updated_at = greatest(now(), a.updated_at + interval '1 millisecond')
  from ranked r
 where r.tenant_id = a.tenant_id and r.id = a.id and r.place > 1;

create unique index oauth_apps_name on oauth_apps (tenant_id, lower(btrim(name)));
