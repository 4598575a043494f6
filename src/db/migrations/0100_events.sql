-- Events (the events module; docs/design.md, "Events and webhooks"): every write of the tables
-- integrators follow records an event in the same transaction, by the triggers below, whatever
-- wrote it (HTTP, CLI, jobs). A transaction records at most one event per resource: later
-- changes of the same resource in that transaction update its event (its Data is the last state;
-- created stays created unless deleted, deleted wins).
--
-- The feed is ordered by (tx_id, id): tx_id is the writing transaction's id, and a reader only
-- sees events of transactions older than the oldest one still running
-- (pg_snapshot_xmin(pg_current_snapshot())). Every event a reader will ever see later then sorts
-- after every event it has seen: no event is skipped by a cursor.
create table events (
  tenant_id integer not null references tenants (id) on delete cascade,
  tx_id bigint not null,
  id bigint generated always as identity,
  resource text not null,
  resource_id text not null,
  type text not null,
  occurred_at timestamptz not null default now(),
  data text not null,
  primary key (tenant_id, tx_id, id)
);
create unique index events_once_per_transaction on events (tenant_id, tx_id, resource, resource_id);
create index events_occurred on events (tenant_id, occurred_at);

create function event_type_merge(earlier text, later text) returns text language sql immutable as $$
  select case when later like '%.deleted' then later when earlier like '%.created' then earlier else later end
$$;

-- Data of the resources that are not items or apps (those keep their wire-shape document).
create function brand_data(b brands) returns text language sql stable as $$
  select json_build_object('Id', b.id, 'Name', b.name)::text
$$;
create function category_data(c categories) returns text language sql stable as $$
  select json_build_object('Id', c.id, 'Name', c.name, 'ShortDescription', c.short_description,
    'LongDescription', c.long_description, 'ParentCategoryId', c.parent_id,
    'CategoryMetadata', coalesce((select json_agg(json_build_object('Key', m.key, 'Value', m.value) order by m.key)
       from category_metadata m where m.tenant_id = c.tenant_id and m.category_id = c.id), '[]'::json))::text
$$;
create function endpoint_data(e integration_endpoints) returns text language sql stable as $$
  select json_build_object('ServiceName', e.service_name, 'Status', e.status, 'ServiceTier', e.service_tier,
    'AdminMail', e.admin_mail,
    'CreationDate', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

-- One trigger function per table, made from (function, resource, action, rows): `rows` selects
-- (tenant_id, resource_id, data) from `changed`, the statement's transition table; the action is
-- the statement's (created, updated, deleted) unless given. Each is static SQL, so PL/pgSQL
-- plans it once per connection. Rows of a tenant being deleted (the cascade from tenants) are
-- left out by the join with tenants.
do $do$
declare
  f record;
begin
  for f in select * from (values
      ('events_of_items', 'item', null,
        'select tenant_id, id::text as resource_id, document as data from changed'),
      -- Asset relations change their item, brand or category.
      ('events_of_item_assets', 'item', 'updated',
        'select distinct i.tenant_id, i.id::text as resource_id, i.document as data
           from changed c join items i on i.tenant_id = c.tenant_id and i.id = c.item_id'),
      ('events_of_brands', 'brand', null,
        'select tenant_id, id::text as resource_id, brand_data(changed) as data from changed'),
      ('events_of_brand_assets', 'brand', 'updated',
        'select distinct b.tenant_id, b.id::text as resource_id, brand_data(b) as data
           from changed c join brands b on b.tenant_id = c.tenant_id and b.id = c.brand_id'),
      ('events_of_categories', 'category', null,
        'select tenant_id, id::text as resource_id, category_data(changed) as data from changed'),
      ('events_of_category_assets', 'category', 'updated',
        'select distinct g.tenant_id, g.id::text as resource_id, category_data(g) as data
           from changed c join categories g on g.tenant_id = c.tenant_id and g.id = c.category_id'),
      ('events_of_tags', 'tag', null,
        'select tenant_id, id::text as resource_id,
                json_build_object(''Id'', id, ''Name'', name, ''Description'', description)::text as data
           from changed'),
      ('events_of_assets', 'asset', null,
        'select tenant_id, id::text as resource_id,
                json_build_object(''Id'', id, ''FileName'', file_name, ''MimeType'', mime_type, ''Size'', size)::text as data
           from changed'),
      ('events_of_stores', 'store', null,
        'select tenant_id, id::text as resource_id,
                json_build_object(''Id'', id, ''Name'', name, ''Description'', description, ''Address'', address,
                  ''Location'', json_build_object(''Longitude'', longitude, ''Latitude'', latitude))::text as data
           from changed'),
      ('events_of_physical_devices', 'physical_device', null,
        'select tenant_id, id as resource_id,
                json_build_object(''DeviceId'', id, ''Description'', description, ''StoreId'', store_id)::text as data
           from changed'),
      ('events_of_logical_devices', 'logical_device', null,
        'select tenant_id, id as resource_id,
                json_build_object(''DeviceId'', id, ''PhysicalDeviceId'', physical_device_id,
                  ''Description'', description, ''DeviceTypeId'', device_type_id,
                  ''ExpirationDate'', to_char(expiration_date at time zone ''UTC'', ''YYYY-MM-DD"T"HH24:MI:SS.MS"Z"''),
                  ''Metadata'', metadata)::text as data
           from changed'),
      ('events_of_apps', 'app', null,
        'select tenant_id, id::text as resource_id, document as data from changed'),
      -- The integration endpoint: created (in status 1), its status changes, its removal.
      ('events_of_endpoint_rows', 'integration_endpoint', null,
        'select tenant_id, service_name as resource_id, endpoint_data(changed) as data from changed'),
      ('events_of_endpoint_status', 'integration_endpoint', 'status_changed',
        'select n.tenant_id, n.service_name as resource_id, endpoint_data(n) as data
           from changed n join before_rows o on o.tenant_id = n.tenant_id
          where o.status is distinct from n.status')
    ) as v (fn, resource, action, rows_sql)
  loop
    execute format($f$
      create function %I() returns trigger language plpgsql as $body$
      declare
        action text := coalesce(%L, case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
      begin
        insert into events as e (tenant_id, tx_id, resource, resource_id, type, data)
          select r.tenant_id, pg_current_xact_id()::text::bigint, %L, r.resource_id, %L || '.' || action, r.data
            from (%s) r join tenants t on t.id = r.tenant_id
        on conflict (tenant_id, tx_id, resource, resource_id) do update
          set data = excluded.data, type = event_type_merge(e.type, excluded.type);
        return null;
      end $body$$f$, f.fn, f.action, f.resource, f.resource, f.rows_sql);
  end loop;
end $do$;

-- Statement triggers (one per operation: a trigger with transition tables takes one event).
do $$
declare
  t record;
begin
  for t in select * from (values
      ('items', 'events_of_items'),
      ('item_assets', 'events_of_item_assets'),
      ('brands', 'events_of_brands'),
      ('brand_assets', 'events_of_brand_assets'),
      ('categories', 'events_of_categories'),
      ('category_assets', 'events_of_category_assets'),
      ('tags', 'events_of_tags'),
      ('assets', 'events_of_assets'),
      ('stores', 'events_of_stores'),
      ('physical_devices', 'events_of_physical_devices'),
      ('logical_devices', 'events_of_logical_devices'),
      ('oauth_apps', 'events_of_apps')) as v (tbl, fn)
  loop
    execute format('create trigger %I after insert on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_inserted', t.tbl, t.fn);
    execute format('create trigger %I after update on %I referencing new table as changed for each statement execute function %I()',
      t.tbl || '_events_updated', t.tbl, t.fn);
    execute format('create trigger %I after delete on %I referencing old table as changed for each statement execute function %I()',
      t.tbl || '_events_deleted', t.tbl, t.fn);
  end loop;
end $$;

create trigger integration_endpoints_events_inserted after insert on integration_endpoints
  referencing new table as changed for each statement execute function events_of_endpoint_rows();
create trigger integration_endpoints_events_updated after update on integration_endpoints
  referencing old table as before_rows new table as changed for each statement execute function events_of_endpoint_status();
create trigger integration_endpoints_events_deleted after delete on integration_endpoints
  referencing old table as changed for each statement execute function events_of_endpoint_rows();

-- Webhook subscriptions. The secret signs deliveries, so it is kept (not a hash); after a
-- rotation the previous one signs too until previous_secret_expires_at. cursor_* is the feed
-- position up to which events were turned into deliveries.
create table webhook_subscriptions (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  url text not null,
  event_types text[] not null,
  description text,
  owner_email text,
  enabled boolean not null default true,
  disabled_reason text,
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  cursor_tx bigint not null,
  cursor_id bigint not null default 0,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create index webhook_subscriptions_enabled on webhook_subscriptions (tenant_id, id) where enabled;

-- One delivery of one event to one subscription (a replay is a new delivery): the delivery log.
create table webhook_deliveries (
  tenant_id integer not null,
  id bigint generated always as identity,
  subscription_id integer not null,
  event_tx bigint not null,
  event_id bigint not null,
  event_type text not null,
  resource text not null,
  resource_id text not null,
  occurred_at timestamptz not null,
  state text not null default 'pending' check (state in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  claimed_until timestamptz,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  duration_ms integer,
  last_error text,
  replay_of bigint,
  created_at timestamptz not null,
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references webhook_subscriptions (tenant_id, id) on delete cascade
);
-- Due work across tenants, and the oldest pending delivery of one resource (per-resource order).
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';
create index webhook_deliveries_resource_order on webhook_deliveries
  (tenant_id, subscription_id, resource, resource_id, id) where state = 'pending';
create index webhook_deliveries_log on webhook_deliveries (tenant_id, subscription_id, id);
create index webhook_deliveries_created on webhook_deliveries (created_at);
