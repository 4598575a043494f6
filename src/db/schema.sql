-- The schema the checked-in migrations build (public schema). Written by `npm run db:schema`; do not edit.

-- Extensions
create extension btree_gin schema public;
create extension btree_gist schema public;
create extension cube schema public;
create extension earthdistance schema public;
create extension fuzzystrmatch schema public;
create extension pg_trgm schema public;
create extension unaccent schema public;

-- Types

-- Sequences
sequence analytics_logs_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by analytics_logs.id
sequence assets_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by assets.id
sequence auth_invalidations_seq_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by auth_invalidations.seq
sequence brands_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by brands.id
sequence catalog_exports_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by catalog_exports.id
sequence catalog_imports_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by catalog_imports.id
sequence categories_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by categories.id
sequence change_history_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by change_history.id
sequence device_types_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by device_types.id
sequence dynamic_attribute_types_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by dynamic_attribute_types.id
sequence dynamic_attribute_values_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by dynamic_attribute_values.id
sequence events_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by events.id
sequence integration_endpoint_generations as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1
sequence item_prices_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by item_prices.id
sequence items_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by items.id
sequence member_invitations_created_seq_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by member_invitations.created_seq
sequence members_created_seq_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by members.created_seq
sequence notification_outbox_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by notification_outbox.id
sequence oauth_apps_created_seq_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by oauth_apps.created_seq
sequence physical_device_generations as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1
sequence price_types_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by price_types.id
sequence stores_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by stores.id
sequence tags_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by tags.id
sequence tenants_id_seq as integer start 1 increment 1 min 1 max 2147483647 cache 1 owned by tenants.id
sequence webhook_deliveries_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by webhook_deliveries.id
sequence webhook_subscriptions_id_seq as bigint start 1 increment 1 min 1 max 9223372036854775807 cache 1 owned by webhook_subscriptions.id

-- Tables and their columns
table analytics_logs partition by RANGE (created_at)
  tenant_id integer not null
  counter smallint not null
  created_at timestamp with time zone not null
  id bigint not null default nextval('analytics_logs_id_seq'::regclass)
  item_id bigint
  store_id bigint
  physical_device_id text
  record text not null
table analytics_logs_default partition of analytics_logs DEFAULT
  tenant_id integer not null
  counter smallint not null
  created_at timestamp with time zone not null
  id bigint not null default nextval('analytics_logs_id_seq'::regclass)
  item_id bigint
  store_id bigint
  physical_device_id text
  record text not null
table analytics_secrets
  id smallint not null
  secret bytea not null
table analytics_settings
  tenant_id integer not null
  time_zone text not null default 'UTC'::text
  version integer not null default 1
table analytics_trending_weights
  tenant_id integer not null
  weights jsonb not null
  version integer not null default 1
table assets
  tenant_id integer not null
  id bigint not null default nextval('assets_id_seq'::regclass)
  file_name text not null
  mime_type text not null
  family text not null
  size bigint not null
  sha256 text not null
  url_key text not null
  created_at timestamp with time zone not null default now()
table auth_invalidations
  seq bigint not null default nextval('auth_invalidations_seq_seq'::regclass)
  tenant_id integer not null
  app_id uuid
  jti uuid
  created_at timestamp with time zone not null default now()
table authorization_codes
  tenant_id integer not null
  code_hash text not null
  client_id text not null
  redirect_uri text not null
  code_challenge text not null
  member_id uuid not null
  expires_at timestamp with time zone not null
  used_at timestamp with time zone
  family_id uuid
table brand_assets
  tenant_id integer not null
  brand_id bigint not null
  asset_id bigint not null
  kind text not null
  is_default boolean not null default false
table brands
  tenant_id integer not null
  id bigint not null default nextval('brands_id_seq'::regclass)
  name text not null
  version integer not null default 1
table catalog_exports
  tenant_id integer not null
  id bigint not null default nextval('catalog_exports_id_seq'::regclass)
  format text not null
  filter jsonb not null
  base_url text not null
  state text not null default 'Queued'::text
  items_written bigint not null default 0
  asset_id bigint
  asset_url text
  error text
  lease_token uuid
  lease_until timestamp with time zone
  created_at timestamp with time zone not null default now()
  started_at timestamp with time zone
  finished_at timestamp with time zone
table catalog_import_groups
  tenant_id integer not null
  import_id bigint not null
  group_key text not null
  default_item_id bigint not null
table catalog_import_results
  tenant_id integer not null
  import_id bigint not null
  first_record bigint not null
  body text not null
table catalog_import_skus
  tenant_id integer not null
  import_id bigint not null
  sku text not null
table catalog_imports
  tenant_id integer not null
  id bigint not null default nextval('catalog_imports_id_seq'::regclass)
  format text not null
  error_policy text not null
  create_missing boolean not null
  source_asset_id bigint not null
  source_bytes bigint not null
  state text not null default 'Queued'::text
  phase text not null default 'Writing'::text
  records_done bigint not null default 0
  lines_done bigint not null default 0
  bytes_done bigint not null default 0
  rows_written bigint not null default 0
  rows_failed bigint not null default 0
  error text
  lease_token uuid
  lease_until timestamp with time zone
  created_at timestamp with time zone not null default now()
  started_at timestamp with time zone
  finished_at timestamp with time zone
  started_by text
table catalog_item_counts
  tenant_id integer not null
  items bigint not null default 0
  changes bigint not null default 0
table categories
  tenant_id integer not null
  id bigint not null default nextval('categories_id_seq'::regclass)
  name text not null
  short_description text
  long_description text
  parent_id bigint
  version integer not null default 1
table category_assets
  tenant_id integer not null
  category_id bigint not null
  asset_id bigint not null
  kind text not null
  is_default boolean not null default false
table category_metadata
  tenant_id integer not null
  category_id bigint not null
  key text not null
  value text not null
table change_history partition by RANGE (changed_at)
  tenant_id integer not null
  changed_at timestamp with time zone not null default now()
  id bigint not null default nextval('change_history_id_seq'::regclass)
  tx_id bigint not null
  resource text not null
  resource_id text not null
  action text not null
  version integer not null
  actor text not null
  actor_key text not null
  context text not null
  data text
  seq bigint
  hash text
table change_history_chains
  tenant_id integer not null
  sealed_seq bigint not null default 0
  sealed_hash text not null default ''::text
  pruned_seq bigint not null default 0
  pruned_hash text not null default ''::text
table change_history_default partition of change_history DEFAULT
  tenant_id integer not null
  changed_at timestamp with time zone not null default now()
  id bigint not null default nextval('change_history_id_seq'::regclass)
  tx_id bigint not null
  resource text not null
  resource_id text not null
  action text not null
  version integer not null
  actor text not null
  actor_key text not null
  context text not null
  data text
  seq bigint
  hash text
table change_history_settings
  tenant_id integer not null
  retention_days integer not null
  version integer not null default 1
table client_auth_failures
  tenant_id integer not null
  client_id text not null
  source text not null
  failures integer not null
  first_failed_at timestamp with time zone not null default now()
  locked_until timestamp with time zone
table commit_markers
  token uuid not null
  marked_at timestamp with time zone not null default now()
table coordinator_local_tables
  table_name text not null
  reason text not null
table device_types
  tenant_id integer not null
  id bigint not null default nextval('device_types_id_seq'::regclass)
  description text not null
  updated_at timestamp with time zone not null default now()
table distribution_pending_keys
  table_name text not null
  name text not null
  definition text not null
table dynamic_attribute_types
  tenant_id integer not null
  id bigint not null default nextval('dynamic_attribute_types_id_seq'::regclass)
  description text not null
  version integer not null default 1
table dynamic_attribute_values
  tenant_id integer not null
  id bigint not null default nextval('dynamic_attribute_values_id_seq'::regclass)
  type_id bigint not null
  value text not null
table event_feed_heads
  tenant_id integer not null
  "position" bigint not null
table events
  tenant_id integer not null
  tx_id bigint not null
  id bigint not null default nextval('events_id_seq'::regclass)
  resource text not null
  resource_id text not null
  type text not null
  occurred_at timestamp with time zone not null default now()
  data text not null
  "position" bigint
  actor text
table gateway_rate_windows
  service_name text not null
  window_start bigint not null
  requests integer not null
table idempotency_keys
  tenant_id integer not null
  app_id uuid not null
  key text not null
  fingerprint text not null
  claim uuid not null
  locked_until timestamp with time zone
  status_code smallint
  headers jsonb
  body bytea
  created_at timestamp with time zone not null default now()
  expires_at timestamp with time zone not null
table integration_endpoints
  tenant_id integer not null
  service_name text not null
  service_tier smallint not null
  admin_mail text not null
  status smallint not null
  failure_reason text
  subscription_key text
  generation bigint not null default nextval('integration_endpoint_generations'::regclass)
  job_id text
  created_at timestamp with time zone not null default now()
  updated_at timestamp with time zone not null default now()
table integration_service_names
  name_key text not null
  owner_tenant_id integer not null
table item_assets
  tenant_id integer not null
  item_id bigint not null
  asset_id bigint not null
  kind text not null
  is_default boolean not null default false
table item_attributes
  tenant_id integer not null
  item_id bigint not null
  type_id bigint not null
  value_id bigint not null
table item_prices
  tenant_id integer not null
  id bigint not null default nextval('item_prices_id_seq'::regclass)
  item_id bigint not null
  price_type_id bigint not null
  normal_price numeric(14,4) not null
  discount_price numeric(14,4)
table item_search_counts
  tenant_id integer not null
  item_status_id smallint not null
  master boolean not null
  items bigint not null
table item_search_rows
  tenant_id integer not null
  item_id bigint not null
  item_status_id smallint not null
  default_item_id bigint
  category_id bigint
  brand_id bigint
  title_key text not null
  date_added timestamp with time zone not null
  rating numeric(4,2)
  facet_tag_ids bigint[] not null
  facet_value_ids bigint[] not null
  facet_price_type_ids bigint[] not null
  facet_prices double precision[] not null
  search_vector tsvector not null
  title_vector tsvector not null
table item_search_words
  tenant_id integer not null
  word text not null
table item_tags
  tenant_id integer not null
  item_id bigint not null
  tag_id bigint not null
table items
  tenant_id integer not null
  id bigint not null default nextval('items_id_seq'::regclass)
  sku text
  rfid text
  uuid text
  name text
  title text not null
  model text
  short_description text
  long_description text
  item_status_id smallint not null default 1
  category_id bigint
  brand_id bigint
  default_item_id bigint
  in_stock boolean not null default false
  public_web_link text
  rating numeric(4,2)
  like_count integer not null default 0
  date_added timestamp with time zone not null default now()
  date_modified timestamp with time zone not null default now()
  version integer not null default 1
  document text not null
  search_vector tsvector generated always as (((setweight(to_tsvector('simple'::regconfig, search_fold(((COALESCE(title, ''::text) || ' '::text) || COALESCE(name, ''::text)))), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, search_fold(((COALESCE(sku, ''::text) || ' '::text) || COALESCE(model, ''::text)))), 'B'::"char")) || setweight(to_tsvector('simple'::regconfig, search_fold(((COALESCE(short_description, ''::text) || ' '::text) || COALESCE(long_description, ''::text)))), 'C'::"char"))) stored
  facet_tag_ids bigint[] not null default '{}'::bigint[]
  facet_value_ids bigint[] not null default '{}'::bigint[]
  facet_price_type_ids bigint[] not null default '{}'::bigint[]
  facet_prices double precision[] not null default '{}'::double precision[]
table job_runs
  queue text not null
  job_key text not null
  crashes integer not null default 0
  run_token uuid
  alive_until timestamp with time zone
  poisoned_at timestamp with time zone
  reason text
table logical_devices
  tenant_id integer not null
  id text not null
  physical_device_id text not null
  description text not null
  device_type_id bigint
  expiration_date timestamp with time zone
  metadata jsonb not null default '[]'::jsonb
  updated_at timestamp with time zone not null default now()
table member_idempotency_keys
  tenant_id integer not null
  member_id uuid not null
  key text not null
  fingerprint text not null
  claim uuid not null
  locked_until timestamp with time zone
  status_code smallint
  headers jsonb
  body bytea
  created_at timestamp with time zone not null default now()
  expires_at timestamp with time zone not null
table member_invitations
  tenant_id integer not null
  id uuid not null
  email text not null
  name text
  roles text[] not null
  token_hash text not null
  invited_by text
  created_at timestamp with time zone not null default now()
  sent_at timestamp with time zone not null default now()
  expires_at timestamp with time zone not null
  created_seq bigint not null default nextval('member_invitations_created_seq_seq'::regclass)
table member_signin_failures
  tenant_id integer not null
  kind text not null
  key text not null
  failures integer not null
  first_failed_at timestamp with time zone not null default now()
  locked_until timestamp with time zone
table members
  tenant_id integer not null
  id uuid not null
  username text not null
  name text not null
  password_hash text not null
  must_change_password boolean not null default false
  roles text[] not null
  security_version integer not null default 1
  created_at timestamp with time zone not null default now()
  updated_at timestamp with time zone not null default now()
  email text
  created_seq bigint not null default nextval('members_created_seq_seq'::regclass)
  password_set_at timestamp with time zone default now()
table notification_outbox
  id bigint not null default nextval('notification_outbox_id_seq'::regclass)
  tenant_id integer not null
  recipient text not null
  subject text not null
  body text not null
  created_at timestamp with time zone not null default now()
  sent_at timestamp with time zone
  attempts integer not null default 0
  last_error text
  claimed_until timestamp with time zone
table oauth_apps
  tenant_id integer not null
  id uuid not null
  name text not null
  description text
  application_type_id smallint not null
  is_predefined boolean not null default false
  secret_hash text not null
  secret_version integer not null default 1
  created_at timestamp with time zone not null default now()
  updated_at timestamp with time zone not null default now()
  document text not null
  created_seq bigint not null default nextval('oauth_apps_created_seq_seq'::regclass)
  secret_set_at timestamp with time zone default now()
table physical_devices
  tenant_id integer not null
  id text not null
  description text
  store_id bigint
  updated_at timestamp with time zone not null default now()
  generation bigint not null default nextval('physical_device_generations'::regclass)
table price_types
  tenant_id integer not null
  id bigint not null default nextval('price_types_id_seq'::regclass)
  description text not null
  symbol text not null
  version integer not null default 1
table refresh_tokens
  tenant_id integer not null
  token_hash text not null
  family_id uuid not null
  client_id text not null
  member_id uuid not null
  access_jti uuid not null
  access_expires_at timestamp with time zone not null
  created_at timestamp with time zone not null default now()
  expires_at timestamp with time zone not null
  spent_at timestamp with time zone
table revoked_tokens
  tenant_id integer not null
  jti uuid not null
  expires_at timestamp with time zone not null
  revoked_at timestamp with time zone not null default now()
table sample_records
  tenant_id integer not null
  kind text not null
  resource_id text not null
  key text
  created_at timestamp with time zone not null default now()
table schema_migrations
  version text not null
  applied_at timestamp with time zone not null default now()
table signing_keys
  kid text not null
  algorithm text not null
  private_jwk jsonb not null
  public_jwk jsonb not null
  created_at timestamp with time zone not null default now()
  retired_at timestamp with time zone
table sql_code_files
  name text not null
  sha256 text not null
  applied_at timestamp with time zone not null default now()
table storage_blobs
  tenant_id integer not null
  sha256 text not null
  size bigint not null
  touched_at timestamp with time zone not null default now()
table storage_shared_blobs
  sha256 text not null
table stores
  tenant_id integer not null
  id bigint not null default nextval('stores_id_seq'::regclass)
  name text not null
  description text
  address text
  longitude double precision not null
  latitude double precision not null
  updated_at timestamp with time zone not null default now()
  point cube generated always as (cube(ARRAY[(((6378168)::double precision * cos(radians(latitude))) * cos(radians(longitude))), (((6378168)::double precision * cos(radians(latitude))) * sin(radians(longitude))), ((6378168)::double precision * sin(radians(latitude)))])) stored
table tags
  tenant_id integer not null
  id bigint not null default nextval('tags_id_seq'::regclass)
  name text not null
  description text
  version integer not null default 1
table tenants
  id integer not null default nextval('tenants_id_seq'::regclass)
  name text not null
  created_at timestamp with time zone not null default now()
table webhook_deliveries
  tenant_id integer not null
  id bigint not null default nextval('webhook_deliveries_id_seq'::regclass)
  subscription_id bigint not null
  event_position bigint not null
  event_id bigint not null
  event_type text not null
  resource text not null
  resource_id text not null
  occurred_at timestamp with time zone not null
  state text not null default 'pending'::text
  attempts integer not null default 0
  next_attempt_at timestamp with time zone not null
  claimed_until timestamp with time zone
  first_attempt_at timestamp with time zone
  last_attempt_at timestamp with time zone
  response_status integer
  duration_ms integer
  last_error text
  replay_of bigint
  created_at timestamp with time zone not null
  lost_claims integer not null default 0
table webhook_subscriptions
  tenant_id integer not null
  id bigint not null default nextval('webhook_subscriptions_id_seq'::regclass)
  url text not null
  event_types text[] not null
  description text
  owner_email text
  enabled boolean not null default true
  disabled_reason text
  secret text not null
  previous_secret text
  previous_secret_expires_at timestamp with time zone
  failing_since timestamp with time zone
  cursor_position bigint not null
  cursor_id bigint not null default 0
  version integer not null default 1
  created_at timestamp with time zone not null default now()
  updated_at timestamp with time zone not null default now()

-- Constraints (not null is shown with the columns)
analytics_logs analytics_logs_pkey PRIMARY KEY (tenant_id, counter, created_at, id)
analytics_logs_default analytics_logs_default_pkey PRIMARY KEY (tenant_id, counter, created_at, id)
analytics_secrets analytics_secrets_id_check CHECK ((id = 1))
analytics_secrets analytics_secrets_pkey PRIMARY KEY (id)
analytics_settings analytics_settings_pkey PRIMARY KEY (tenant_id)
analytics_settings analytics_settings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
analytics_trending_weights analytics_trending_weights_pkey PRIMARY KEY (tenant_id)
analytics_trending_weights analytics_trending_weights_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
assets assets_family_check CHECK ((family = ANY (ARRAY['image'::text, 'video'::text, 'document'::text])))
assets assets_pkey PRIMARY KEY (tenant_id, id)
assets assets_sha256_fkey FOREIGN KEY (tenant_id, sha256) REFERENCES storage_blobs(tenant_id, sha256) DEFERRABLE
assets assets_size_check CHECK ((size >= 0))
assets assets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
auth_invalidations auth_invalidations_pkey PRIMARY KEY (tenant_id, seq)
authorization_codes authorization_codes_pkey PRIMARY KEY (tenant_id, code_hash)
authorization_codes authorization_codes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
authorization_codes authorization_codes_tenant_id_member_id_fkey FOREIGN KEY (tenant_id, member_id) REFERENCES members(tenant_id, id) ON DELETE CASCADE
brand_assets brand_assets_kind_check CHECK ((kind = ANY (ARRAY['image'::text, 'video'::text, 'document'::text])))
brand_assets brand_assets_pkey PRIMARY KEY (tenant_id, brand_id, asset_id)
brand_assets brand_assets_tenant_id_asset_id_fkey FOREIGN KEY (tenant_id, asset_id) REFERENCES assets(tenant_id, id) DEFERRABLE
brand_assets brand_assets_tenant_id_brand_id_fkey FOREIGN KEY (tenant_id, brand_id) REFERENCES brands(tenant_id, id) ON DELETE CASCADE
brand_assets brand_assets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
brands brands_pkey PRIMARY KEY (tenant_id, id)
brands brands_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
catalog_exports catalog_exports_format_check CHECK ((format = ANY (ARRAY['jsonl'::text, 'csv'::text])))
catalog_exports catalog_exports_pkey PRIMARY KEY (tenant_id, id)
catalog_exports catalog_exports_state_check CHECK ((state = ANY (ARRAY['Queued'::text, 'Running'::text, 'Succeeded'::text, 'Failed'::text])))
catalog_exports catalog_exports_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
catalog_import_groups catalog_import_groups_pkey PRIMARY KEY (tenant_id, import_id, group_key)
catalog_import_groups catalog_import_groups_tenant_id_import_id_fkey FOREIGN KEY (tenant_id, import_id) REFERENCES catalog_imports(tenant_id, id) ON DELETE CASCADE
catalog_import_results catalog_import_results_pkey PRIMARY KEY (tenant_id, import_id, first_record)
catalog_import_results catalog_import_results_tenant_id_import_id_fkey FOREIGN KEY (tenant_id, import_id) REFERENCES catalog_imports(tenant_id, id) ON DELETE CASCADE
catalog_import_skus catalog_import_skus_pkey PRIMARY KEY (tenant_id, import_id, sku)
catalog_import_skus catalog_import_skus_tenant_id_import_id_fkey FOREIGN KEY (tenant_id, import_id) REFERENCES catalog_imports(tenant_id, id) ON DELETE CASCADE
catalog_imports catalog_imports_error_policy_check CHECK ((error_policy = ANY (ARRAY['RejectAll'::text, 'SkipFailedRows'::text])))
catalog_imports catalog_imports_format_check CHECK ((format = ANY (ARRAY['jsonl'::text, 'csv'::text])))
catalog_imports catalog_imports_phase_check CHECK ((phase = ANY (ARRAY['Validating'::text, 'Writing'::text])))
catalog_imports catalog_imports_pkey PRIMARY KEY (tenant_id, id)
catalog_imports catalog_imports_state_check CHECK ((state = ANY (ARRAY['Queued'::text, 'Running'::text, 'Succeeded'::text, 'Failed'::text, 'Cancelled'::text])))
catalog_imports catalog_imports_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
catalog_item_counts catalog_item_counts_pkey PRIMARY KEY (tenant_id)
catalog_item_counts catalog_item_counts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
categories categories_pkey PRIMARY KEY (tenant_id, id)
categories categories_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
categories categories_tenant_id_parent_id_fkey FOREIGN KEY (tenant_id, parent_id) REFERENCES categories(tenant_id, id) DEFERRABLE
category_assets category_assets_kind_check CHECK ((kind = ANY (ARRAY['image'::text, 'video'::text, 'document'::text])))
category_assets category_assets_pkey PRIMARY KEY (tenant_id, category_id, asset_id)
category_assets category_assets_tenant_id_asset_id_fkey FOREIGN KEY (tenant_id, asset_id) REFERENCES assets(tenant_id, id) DEFERRABLE
category_assets category_assets_tenant_id_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES categories(tenant_id, id) ON DELETE CASCADE
category_assets category_assets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
category_metadata category_metadata_pkey PRIMARY KEY (tenant_id, category_id, key)
category_metadata category_metadata_tenant_id_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES categories(tenant_id, id) ON DELETE CASCADE
change_history change_history_pkey PRIMARY KEY (tenant_id, changed_at, id)
change_history change_history_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
change_history_chains change_history_chains_pkey PRIMARY KEY (tenant_id)
change_history_chains change_history_chains_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
change_history_default change_history_default_pkey PRIMARY KEY (tenant_id, changed_at, id)
change_history_default change_history_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
change_history_settings change_history_settings_pkey PRIMARY KEY (tenant_id)
change_history_settings change_history_settings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
client_auth_failures client_auth_failures_pkey PRIMARY KEY (tenant_id, client_id, source)
client_auth_failures client_auth_failures_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
commit_markers commit_markers_pkey PRIMARY KEY (token)
coordinator_local_tables coordinator_local_tables_pkey PRIMARY KEY (table_name)
device_types device_types_pkey PRIMARY KEY (tenant_id, id)
device_types device_types_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
distribution_pending_keys distribution_pending_keys_pkey PRIMARY KEY (table_name, name)
dynamic_attribute_types dynamic_attribute_types_pkey PRIMARY KEY (tenant_id, id)
dynamic_attribute_types dynamic_attribute_types_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
dynamic_attribute_values dynamic_attribute_values_pkey PRIMARY KEY (tenant_id, id)
dynamic_attribute_values dynamic_attribute_values_tenant_id_type_id_fkey FOREIGN KEY (tenant_id, type_id) REFERENCES dynamic_attribute_types(tenant_id, id) ON DELETE CASCADE
dynamic_attribute_values dynamic_attribute_values_tenant_id_type_id_value_key UNIQUE (tenant_id, type_id, value)
event_feed_heads event_feed_heads_pkey PRIMARY KEY (tenant_id)
event_feed_heads event_feed_heads_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
events events_pkey PRIMARY KEY (tenant_id, id)
events events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
gateway_rate_windows gateway_rate_windows_pkey PRIMARY KEY (service_name, window_start)
idempotency_keys idempotency_keys_pkey PRIMARY KEY (tenant_id, app_id, key)
idempotency_keys idempotency_keys_tenant_id_app_id_fkey FOREIGN KEY (tenant_id, app_id) REFERENCES oauth_apps(tenant_id, id) ON DELETE CASCADE
integration_endpoints integration_endpoints_pkey PRIMARY KEY (tenant_id)
integration_endpoints integration_endpoints_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
integration_service_names integration_service_names_owner_tenant_id_fkey FOREIGN KEY (owner_tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
integration_service_names integration_service_names_pkey PRIMARY KEY (name_key)
item_assets item_assets_kind_check CHECK ((kind = ANY (ARRAY['image'::text, 'video'::text, 'document'::text])))
item_assets item_assets_pkey PRIMARY KEY (tenant_id, item_id, asset_id)
item_assets item_assets_tenant_id_asset_id_fkey FOREIGN KEY (tenant_id, asset_id) REFERENCES assets(tenant_id, id) DEFERRABLE
item_assets item_assets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
item_assets item_assets_tenant_id_item_id_fkey FOREIGN KEY (tenant_id, item_id) REFERENCES items(tenant_id, id) ON DELETE CASCADE DEFERRABLE
item_attributes item_attributes_pkey PRIMARY KEY (tenant_id, item_id, type_id)
item_attributes item_attributes_tenant_id_item_id_fkey FOREIGN KEY (tenant_id, item_id) REFERENCES items(tenant_id, id) ON DELETE CASCADE DEFERRABLE
item_attributes item_attributes_tenant_id_type_id_fkey FOREIGN KEY (tenant_id, type_id) REFERENCES dynamic_attribute_types(tenant_id, id) DEFERRABLE
item_attributes item_attributes_tenant_id_value_id_fkey FOREIGN KEY (tenant_id, value_id) REFERENCES dynamic_attribute_values(tenant_id, id) DEFERRABLE
item_prices item_prices_pkey PRIMARY KEY (tenant_id, id)
item_prices item_prices_tenant_id_item_id_fkey FOREIGN KEY (tenant_id, item_id) REFERENCES items(tenant_id, id) ON DELETE CASCADE DEFERRABLE
item_prices item_prices_tenant_id_item_id_price_type_id_key UNIQUE (tenant_id, item_id, price_type_id)
item_prices item_prices_tenant_id_price_type_id_fkey FOREIGN KEY (tenant_id, price_type_id) REFERENCES price_types(tenant_id, id) DEFERRABLE
item_search_counts item_search_counts_pkey PRIMARY KEY (tenant_id, item_status_id, master)
item_search_counts item_search_counts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
item_search_rows item_search_rows_pkey PRIMARY KEY (tenant_id, item_id)
item_search_rows item_search_rows_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
item_search_words item_search_words_pkey PRIMARY KEY (tenant_id, word)
item_search_words item_search_words_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
item_tags item_tags_pkey PRIMARY KEY (tenant_id, item_id, tag_id)
item_tags item_tags_tenant_id_item_id_fkey FOREIGN KEY (tenant_id, item_id) REFERENCES items(tenant_id, id) ON DELETE CASCADE DEFERRABLE
item_tags item_tags_tenant_id_tag_id_fkey FOREIGN KEY (tenant_id, tag_id) REFERENCES tags(tenant_id, id) DEFERRABLE
items items_pkey PRIMARY KEY (tenant_id, id)
items items_tenant_id_brand_id_fkey FOREIGN KEY (tenant_id, brand_id) REFERENCES brands(tenant_id, id) DEFERRABLE
items items_tenant_id_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES categories(tenant_id, id) DEFERRABLE
items items_tenant_id_default_item_id_fkey FOREIGN KEY (tenant_id, default_item_id) REFERENCES items(tenant_id, id) DEFERRABLE
items items_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
job_runs job_runs_pkey PRIMARY KEY (queue, job_key)
logical_devices logical_devices_pkey PRIMARY KEY (tenant_id, id)
logical_devices logical_devices_tenant_id_device_type_id_fkey FOREIGN KEY (tenant_id, device_type_id) REFERENCES device_types(tenant_id, id)
logical_devices logical_devices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
logical_devices logical_devices_tenant_id_physical_device_id_fkey FOREIGN KEY (tenant_id, physical_device_id) REFERENCES physical_devices(tenant_id, id) ON DELETE CASCADE
member_idempotency_keys member_idempotency_keys_pkey PRIMARY KEY (tenant_id, member_id, key)
member_idempotency_keys member_idempotency_keys_tenant_id_member_id_fkey FOREIGN KEY (tenant_id, member_id) REFERENCES members(tenant_id, id) ON DELETE CASCADE
member_invitations member_invitations_pkey PRIMARY KEY (tenant_id, id)
member_invitations member_invitations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
member_signin_failures member_signin_failures_kind_check CHECK ((kind = ANY (ARRAY['username'::text, 'address'::text])))
member_signin_failures member_signin_failures_pkey PRIMARY KEY (tenant_id, kind, key)
member_signin_failures member_signin_failures_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
members members_pkey PRIMARY KEY (tenant_id, id)
members members_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
notification_outbox notification_outbox_pkey PRIMARY KEY (tenant_id, id)
notification_outbox notification_outbox_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
oauth_apps oauth_apps_pkey PRIMARY KEY (tenant_id, id)
oauth_apps oauth_apps_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
physical_devices physical_devices_pkey PRIMARY KEY (tenant_id, id)
physical_devices physical_devices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
physical_devices physical_devices_tenant_id_store_id_fkey FOREIGN KEY (tenant_id, store_id) REFERENCES stores(tenant_id, id)
price_types price_types_pkey PRIMARY KEY (tenant_id, id)
price_types price_types_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
refresh_tokens refresh_tokens_pkey PRIMARY KEY (tenant_id, token_hash)
refresh_tokens refresh_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
refresh_tokens refresh_tokens_tenant_id_member_id_fkey FOREIGN KEY (tenant_id, member_id) REFERENCES members(tenant_id, id) ON DELETE CASCADE
revoked_tokens revoked_tokens_pkey PRIMARY KEY (tenant_id, jti)
revoked_tokens revoked_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
sample_records sample_records_pkey PRIMARY KEY (tenant_id, kind, resource_id)
sample_records sample_records_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
schema_migrations schema_migrations_pkey PRIMARY KEY (version)
signing_keys signing_keys_pkey PRIMARY KEY (kid)
sql_code_files sql_code_files_pkey PRIMARY KEY (name)
storage_blobs storage_blobs_pkey PRIMARY KEY (tenant_id, sha256)
storage_blobs storage_blobs_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
storage_blobs storage_blobs_size_check CHECK ((size >= 0))
storage_shared_blobs storage_shared_blobs_pkey PRIMARY KEY (sha256)
storage_shared_blobs storage_shared_blobs_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
stores stores_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision)))
stores stores_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision)))
stores stores_pkey PRIMARY KEY (tenant_id, id)
stores stores_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
tags tags_pkey PRIMARY KEY (tenant_id, id)
tags tags_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE
tenants tenants_name_key UNIQUE (name)
tenants tenants_pkey PRIMARY KEY (id)
webhook_deliveries webhook_deliveries_pkey PRIMARY KEY (tenant_id, id)
webhook_deliveries webhook_deliveries_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text])))
webhook_deliveries webhook_deliveries_tenant_id_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES webhook_subscriptions(tenant_id, id) ON DELETE CASCADE
webhook_subscriptions webhook_subscriptions_pkey PRIMARY KEY (tenant_id, id)
webhook_subscriptions webhook_subscriptions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON DELETE CASCADE

-- Indexes
CREATE UNIQUE INDEX analytics_logs_pkey ON ONLY public.analytics_logs USING btree (tenant_id, counter, created_at, id);
CREATE UNIQUE INDEX analytics_logs_default_pkey ON public.analytics_logs_default USING btree (tenant_id, counter, created_at, id);
CREATE UNIQUE INDEX analytics_secrets_pkey ON public.analytics_secrets USING btree (id);
CREATE UNIQUE INDEX analytics_settings_pkey ON public.analytics_settings USING btree (tenant_id);
CREATE UNIQUE INDEX analytics_trending_weights_pkey ON public.analytics_trending_weights USING btree (tenant_id);
CREATE UNIQUE INDEX assets_pkey ON public.assets USING btree (tenant_id, id);
CREATE INDEX assets_sha256 ON public.assets USING btree (sha256);
CREATE UNIQUE INDEX assets_url_key ON public.assets USING btree (tenant_id, url_key);
CREATE UNIQUE INDEX auth_invalidations_pkey ON public.auth_invalidations USING btree (tenant_id, seq);
CREATE INDEX auth_invalidations_seq ON public.auth_invalidations USING btree (seq);
CREATE INDEX authorization_codes_member ON public.authorization_codes USING btree (tenant_id, member_id);
CREATE UNIQUE INDEX authorization_codes_pkey ON public.authorization_codes USING btree (tenant_id, code_hash);
CREATE INDEX brand_assets_asset ON public.brand_assets USING btree (tenant_id, asset_id);
CREATE UNIQUE INDEX brand_assets_default ON public.brand_assets USING btree (tenant_id, brand_id, kind) WHERE is_default;
CREATE UNIQUE INDEX brand_assets_pkey ON public.brand_assets USING btree (tenant_id, brand_id, asset_id);
CREATE UNIQUE INDEX brands_name ON public.brands USING btree (tenant_id, lower(name));
CREATE UNIQUE INDEX brands_pkey ON public.brands USING btree (tenant_id, id);
CREATE UNIQUE INDEX catalog_exports_pkey ON public.catalog_exports USING btree (tenant_id, id);
CREATE INDEX catalog_exports_unfinished ON public.catalog_exports USING btree (lease_until) WHERE (state = ANY (ARRAY['Queued'::text, 'Running'::text]));
CREATE UNIQUE INDEX catalog_import_groups_pkey ON public.catalog_import_groups USING btree (tenant_id, import_id, group_key);
CREATE UNIQUE INDEX catalog_import_results_pkey ON public.catalog_import_results USING btree (tenant_id, import_id, first_record);
CREATE UNIQUE INDEX catalog_import_skus_pkey ON public.catalog_import_skus USING btree (tenant_id, import_id, sku);
CREATE UNIQUE INDEX catalog_imports_pkey ON public.catalog_imports USING btree (tenant_id, id);
CREATE INDEX catalog_imports_unfinished ON public.catalog_imports USING btree (lease_until) WHERE (state = ANY (ARRAY['Queued'::text, 'Running'::text]));
CREATE UNIQUE INDEX catalog_item_counts_pkey ON public.catalog_item_counts USING btree (tenant_id);
CREATE INDEX categories_name ON public.categories USING btree (tenant_id, lower(name), parent_id);
CREATE INDEX categories_parent ON public.categories USING btree (tenant_id, parent_id);
CREATE UNIQUE INDEX categories_pkey ON public.categories USING btree (tenant_id, id);
CREATE INDEX category_assets_asset ON public.category_assets USING btree (tenant_id, asset_id);
CREATE UNIQUE INDEX category_assets_default ON public.category_assets USING btree (tenant_id, category_id, kind) WHERE is_default;
CREATE UNIQUE INDEX category_assets_pkey ON public.category_assets USING btree (tenant_id, category_id, asset_id);
CREATE UNIQUE INDEX category_metadata_pkey ON public.category_metadata USING btree (tenant_id, category_id, key);
CREATE INDEX change_history_actor ON ONLY public.change_history USING btree (tenant_id, actor_key, changed_at, id);
CREATE UNIQUE INDEX change_history_once_per_transaction ON ONLY public.change_history USING btree (tenant_id, tx_id, resource, resource_id, changed_at);
CREATE UNIQUE INDEX change_history_pkey ON ONLY public.change_history USING btree (tenant_id, changed_at, id);
CREATE INDEX change_history_resource ON ONLY public.change_history USING btree (tenant_id, resource, resource_id, version);
CREATE INDEX change_history_resource_pages ON ONLY public.change_history USING btree (tenant_id, resource, resource_id, changed_at, id);
CREATE INDEX change_history_sequence ON ONLY public.change_history USING btree (tenant_id, seq) WHERE (seq IS NOT NULL);
CREATE INDEX change_history_unsealed ON ONLY public.change_history USING btree (tenant_id, id) WHERE (seq IS NULL);
CREATE UNIQUE INDEX change_history_chains_pkey ON public.change_history_chains USING btree (tenant_id);
CREATE UNIQUE INDEX change_history_default_pkey ON public.change_history_default USING btree (tenant_id, changed_at, id);
CREATE INDEX change_history_default_tenant_id_actor_key_changed_at_id_idx ON public.change_history_default USING btree (tenant_id, actor_key, changed_at, id);
CREATE INDEX change_history_default_tenant_id_id_idx ON public.change_history_default USING btree (tenant_id, id) WHERE (seq IS NULL);
CREATE INDEX change_history_default_tenant_id_resource_resource_id_chang_idx ON public.change_history_default USING btree (tenant_id, resource, resource_id, changed_at, id);
CREATE INDEX change_history_default_tenant_id_resource_resource_id_versi_idx ON public.change_history_default USING btree (tenant_id, resource, resource_id, version);
CREATE INDEX change_history_default_tenant_id_seq_idx ON public.change_history_default USING btree (tenant_id, seq) WHERE (seq IS NOT NULL);
CREATE UNIQUE INDEX change_history_default_tenant_id_tx_id_resource_resource_id_idx ON public.change_history_default USING btree (tenant_id, tx_id, resource, resource_id, changed_at);
CREATE UNIQUE INDEX change_history_settings_pkey ON public.change_history_settings USING btree (tenant_id);
CREATE UNIQUE INDEX client_auth_failures_pkey ON public.client_auth_failures USING btree (tenant_id, client_id, source);
CREATE INDEX commit_markers_marked_at ON public.commit_markers USING brin (marked_at);
CREATE UNIQUE INDEX commit_markers_pkey ON public.commit_markers USING btree (token);
CREATE UNIQUE INDEX coordinator_local_tables_pkey ON public.coordinator_local_tables USING btree (table_name);
CREATE UNIQUE INDEX device_types_pkey ON public.device_types USING btree (tenant_id, id);
CREATE UNIQUE INDEX distribution_pending_keys_pkey ON public.distribution_pending_keys USING btree (table_name, name);
CREATE UNIQUE INDEX dynamic_attribute_types_description ON public.dynamic_attribute_types USING btree (tenant_id, lower(description));
CREATE UNIQUE INDEX dynamic_attribute_types_pkey ON public.dynamic_attribute_types USING btree (tenant_id, id);
CREATE UNIQUE INDEX dynamic_attribute_values_pkey ON public.dynamic_attribute_values USING btree (tenant_id, id);
CREATE UNIQUE INDEX dynamic_attribute_values_tenant_id_type_id_value_key ON public.dynamic_attribute_values USING btree (tenant_id, type_id, value);
CREATE UNIQUE INDEX event_feed_heads_pkey ON public.event_feed_heads USING btree (tenant_id);
CREATE INDEX events_feed ON public.events USING btree (tenant_id, "position", id) WHERE ("position" IS NOT NULL);
CREATE INDEX events_occurred ON public.events USING btree (tenant_id, occurred_at);
CREATE UNIQUE INDEX events_once_per_transaction ON public.events USING btree (tenant_id, tx_id, resource, resource_id);
CREATE UNIQUE INDEX events_pkey ON public.events USING btree (tenant_id, id);
CREATE INDEX events_unplaced ON public.events USING btree (tenant_id, id) WHERE ("position" IS NULL);
CREATE UNIQUE INDEX gateway_rate_windows_pkey ON public.gateway_rate_windows USING btree (service_name, window_start);
CREATE INDEX idempotency_keys_expiry ON public.idempotency_keys USING btree (expires_at);
CREATE UNIQUE INDEX idempotency_keys_pkey ON public.idempotency_keys USING btree (tenant_id, app_id, key);
CREATE UNIQUE INDEX integration_endpoints_pkey ON public.integration_endpoints USING btree (tenant_id);
CREATE INDEX integration_endpoints_service_name ON public.integration_endpoints USING btree (lower(service_name));
CREATE INDEX integration_service_names_owner ON public.integration_service_names USING btree (owner_tenant_id);
CREATE UNIQUE INDEX integration_service_names_pkey ON public.integration_service_names USING btree (name_key);
CREATE INDEX item_assets_asset ON public.item_assets USING btree (tenant_id, asset_id);
CREATE UNIQUE INDEX item_assets_default ON public.item_assets USING btree (tenant_id, item_id, kind) WHERE is_default;
CREATE UNIQUE INDEX item_assets_pkey ON public.item_assets USING btree (tenant_id, item_id, asset_id);
CREATE UNIQUE INDEX item_attributes_pkey ON public.item_attributes USING btree (tenant_id, item_id, type_id);
CREATE INDEX item_attributes_type ON public.item_attributes USING btree (tenant_id, type_id);
CREATE INDEX item_attributes_value ON public.item_attributes USING btree (tenant_id, value_id);
CREATE INDEX item_prices_by_type ON public.item_prices USING btree (tenant_id, price_type_id, item_id);
CREATE UNIQUE INDEX item_prices_pkey ON public.item_prices USING btree (tenant_id, id);
CREATE UNIQUE INDEX item_prices_tenant_id_item_id_price_type_id_key ON public.item_prices USING btree (tenant_id, item_id, price_type_id);
CREATE INDEX item_prices_type ON public.item_prices USING btree (tenant_id, price_type_id);
CREATE UNIQUE INDEX item_search_counts_pkey ON public.item_search_counts USING btree (tenant_id, item_status_id, master);
CREATE INDEX item_search_rows_brand ON public.item_search_rows USING btree (tenant_id, brand_id);
CREATE INDEX item_search_rows_by_date_added ON public.item_search_rows USING btree (tenant_id, date_added, item_id);
CREATE INDEX item_search_rows_by_rating ON public.item_search_rows USING btree (tenant_id, rating, item_id);
CREATE INDEX item_search_rows_by_title ON public.item_search_rows USING btree (tenant_id, title_key, item_id) INCLUDE (item_status_id, default_item_id);
CREATE INDEX item_search_rows_category ON public.item_search_rows USING btree (tenant_id, category_id);
CREATE UNIQUE INDEX item_search_rows_pkey ON public.item_search_rows USING btree (tenant_id, item_id);
CREATE INDEX item_search_rows_text ON public.item_search_rows USING gin (search_vector, title_vector);
CREATE UNIQUE INDEX item_search_words_pkey ON public.item_search_words USING btree (tenant_id, word);
CREATE INDEX item_search_words_prefix ON public.item_search_words USING btree (tenant_id, word COLLATE "C");
CREATE INDEX item_search_words_trgm ON public.item_search_words USING gin (tenant_id, word gin_trgm_ops) WITH (fastupdate=off);
CREATE UNIQUE INDEX item_tags_pkey ON public.item_tags USING btree (tenant_id, item_id, tag_id);
CREATE INDEX item_tags_tag ON public.item_tags USING btree (tenant_id, tag_id);
CREATE INDEX items_brand ON public.items USING btree (tenant_id, brand_id);
CREATE INDEX items_category ON public.items USING btree (tenant_id, category_id);
CREATE INDEX items_default_item ON public.items USING btree (tenant_id, default_item_id);
CREATE UNIQUE INDEX items_pkey ON public.items USING btree (tenant_id, id);
CREATE UNIQUE INDEX items_sku ON public.items USING btree (tenant_id, sku) WHERE (sku IS NOT NULL);
CREATE INDEX items_uuid ON public.items USING btree (tenant_id, uuid) WHERE (uuid IS NOT NULL);
CREATE UNIQUE INDEX job_runs_pkey ON public.job_runs USING btree (queue, job_key);
CREATE INDEX logical_devices_physical ON public.logical_devices USING btree (tenant_id, physical_device_id, id);
CREATE UNIQUE INDEX logical_devices_pkey ON public.logical_devices USING btree (tenant_id, id);
CREATE INDEX logical_devices_type ON public.logical_devices USING btree (tenant_id, device_type_id);
CREATE INDEX member_idempotency_keys_expiry ON public.member_idempotency_keys USING btree (expires_at);
CREATE UNIQUE INDEX member_idempotency_keys_pkey ON public.member_idempotency_keys USING btree (tenant_id, member_id, key);
CREATE UNIQUE INDEX member_invitations_email ON public.member_invitations USING btree (tenant_id, email);
CREATE INDEX member_invitations_list ON public.member_invitations USING btree (tenant_id, created_seq);
CREATE UNIQUE INDEX member_invitations_pkey ON public.member_invitations USING btree (tenant_id, id);
CREATE UNIQUE INDEX member_invitations_token ON public.member_invitations USING btree (tenant_id, token_hash);
CREATE UNIQUE INDEX member_signin_failures_pkey ON public.member_signin_failures USING btree (tenant_id, kind, key);
CREATE UNIQUE INDEX members_email ON public.members USING btree (tenant_id, email) WHERE (email IS NOT NULL);
CREATE INDEX members_list ON public.members USING btree (tenant_id, created_seq);
CREATE UNIQUE INDEX members_pkey ON public.members USING btree (tenant_id, id);
CREATE UNIQUE INDEX members_username ON public.members USING btree (tenant_id, username);
CREATE INDEX notification_outbox_pending ON public.notification_outbox USING btree (created_at) WHERE (sent_at IS NULL);
CREATE UNIQUE INDEX notification_outbox_pkey ON public.notification_outbox USING btree (tenant_id, id);
CREATE INDEX oauth_apps_list ON public.oauth_apps USING btree (tenant_id, created_seq);
CREATE UNIQUE INDEX oauth_apps_pkey ON public.oauth_apps USING btree (tenant_id, id);
CREATE UNIQUE INDEX physical_devices_pkey ON public.physical_devices USING btree (tenant_id, id);
CREATE INDEX physical_devices_store ON public.physical_devices USING btree (tenant_id, store_id);
CREATE UNIQUE INDEX price_types_pkey ON public.price_types USING btree (tenant_id, id);
CREATE INDEX price_types_symbol ON public.price_types USING btree (tenant_id, lower(symbol));
CREATE INDEX refresh_tokens_family ON public.refresh_tokens USING btree (tenant_id, family_id);
CREATE INDEX refresh_tokens_member ON public.refresh_tokens USING btree (tenant_id, member_id);
CREATE UNIQUE INDEX refresh_tokens_pkey ON public.refresh_tokens USING btree (tenant_id, token_hash);
CREATE UNIQUE INDEX revoked_tokens_pkey ON public.revoked_tokens USING btree (tenant_id, jti);
CREATE INDEX sample_records_key ON public.sample_records USING btree (tenant_id, kind, key);
CREATE UNIQUE INDEX sample_records_pkey ON public.sample_records USING btree (tenant_id, kind, resource_id);
CREATE UNIQUE INDEX schema_migrations_pkey ON public.schema_migrations USING btree (version);
CREATE UNIQUE INDEX signing_keys_one_active ON public.signing_keys USING btree ((true)) WHERE (retired_at IS NULL);
CREATE UNIQUE INDEX signing_keys_pkey ON public.signing_keys USING btree (kid);
CREATE UNIQUE INDEX sql_code_files_pkey ON public.sql_code_files USING btree (name);
CREATE UNIQUE INDEX storage_blobs_pkey ON public.storage_blobs USING btree (tenant_id, sha256);
CREATE INDEX storage_blobs_touched ON public.storage_blobs USING btree (tenant_id, touched_at, sha256);
CREATE UNIQUE INDEX storage_shared_blobs_pkey ON public.storage_shared_blobs USING btree (sha256);
CREATE UNIQUE INDEX stores_pkey ON public.stores USING btree (tenant_id, id);
CREATE INDEX stores_point ON public.stores USING gist (tenant_id, point);
CREATE UNIQUE INDEX tags_name ON public.tags USING btree (tenant_id, lower(name));
CREATE UNIQUE INDEX tags_pkey ON public.tags USING btree (tenant_id, id);
CREATE UNIQUE INDEX tenants_name_key ON public.tenants USING btree (name);
CREATE UNIQUE INDEX tenants_pkey ON public.tenants USING btree (id);
CREATE INDEX webhook_deliveries_created ON public.webhook_deliveries USING btree (created_at);
CREATE INDEX webhook_deliveries_due ON public.webhook_deliveries USING btree (next_attempt_at) WHERE (state = 'pending'::text);
CREATE INDEX webhook_deliveries_log ON public.webhook_deliveries USING btree (tenant_id, subscription_id, id);
CREATE UNIQUE INDEX webhook_deliveries_pkey ON public.webhook_deliveries USING btree (tenant_id, id);
CREATE INDEX webhook_deliveries_resource_order ON public.webhook_deliveries USING btree (tenant_id, subscription_id, resource, resource_id, id) WHERE (state = 'pending'::text);
CREATE INDEX webhook_subscriptions_enabled ON public.webhook_subscriptions USING btree (tenant_id, id) WHERE enabled;
CREATE UNIQUE INDEX webhook_subscriptions_pkey ON public.webhook_subscriptions USING btree (tenant_id, id);

-- Views

-- Functions
CREATE OR REPLACE FUNCTION public.add_creation_sequence(tbl regclass, list_index text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  seq text := tbl::text || '_created_seq_seq';
begin
  execute format('alter table %s add column created_seq bigint', tbl);
  execute format('alter table %s disable trigger user', tbl);
  execute format(
    'update %1$s t set created_seq = o.n
       from (select tenant_id, id, row_number() over (order by created_at, id) as n from %1$s) o
      where t.tenant_id = o.tenant_id and t.id = o.id', tbl);
  execute format('alter table %s enable trigger user', tbl);
  execute format('alter table %s alter column created_seq set not null', tbl);
  execute format('create sequence %I as bigint owned by %s.created_seq', seq, tbl);
  execute format('select setval(%L, coalesce(max(created_seq), 0) + 1, false) from %s', seq, tbl);
  execute format('alter table %s alter column created_seq set default nextval(%L::regclass)', tbl, seq);
  execute format('drop index %I', list_index);
  execute format('create index %I on %s (tenant_id, created_seq)', list_index, tbl);
end $function$
;
CREATE OR REPLACE FUNCTION public.add_seconds(t timestamp with time zone, seconds double precision)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select to_timestamp(extract(epoch from t - 'epoch'::timestamptz) + seconds)
$function$
;
CREATE OR REPLACE FUNCTION public.app_document(a anyelement)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  select '{"ApplicationId":' || json_text((a).id) || ',"ApplicationSecret":null,"Name":' || json_text((a).name) ||
    ',"Description":' || json_text((a).description) || ',"IsPredefined":' || json_text((a).is_predefined) ||
    ',"ApplicationTypeId":' || json_text((a).application_type_id) ||
    ',"ApplicationTypeDescription":' || json_text(case (a).application_type_id
      when 1 then 'Consumer' when 2 then 'Private' when 3 then 'Management' when 4 then 'Device' end) ||
    ',"CreatedDate":"' || to_char((a).created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
$function$
;
CREATE OR REPLACE FUNCTION public.brand_data(p_id bigint, p_name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select json_build_object('Id', p_id, 'Name', p_name)::text
$function$
;
CREATE OR REPLACE FUNCTION public.categories_touch_from_metadata()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_categories bigint[];
begin
  for v_tenant, v_categories in
    select tenant_id, array_agg(distinct category_id) from changed group by tenant_id
  loop
    update categories set version = version + 1 where tenant_id = v_tenant and id = any(v_categories);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.category_data(p_id bigint, p_name text, p_short_description text, p_long_description text, p_parent_id bigint, p_metadata json)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select json_build_object('Id', p_id, 'Name', p_name, 'ShortDescription', p_short_description,
    'LongDescription', p_long_description, 'ParentCategoryId', p_parent_id,
    'CategoryMetadata', coalesce(p_metadata, '[]'::json))::text
$function$
;
CREATE OR REPLACE FUNCTION public.category_metadata_json(p_tenant integer, p_categories bigint[], OUT category_ids bigint[], OUT metadata json[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$
begin
  select array_agg(category_id), array_agg(entries) into category_ids, metadata
    from (select category_id, json_agg(json_build_object('Key', key, 'Value', value) order by key) as entries
            from category_metadata where tenant_id = p_tenant and category_id = any(p_categories)
           group by category_id) m;
end $function$
;
CREATE OR REPLACE FUNCTION public.change_action_merge(earlier text, later text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select case when later = 'deleted' then later when earlier in ('created', 'restored') then earlier else later end
$function$
;
CREATE OR REPLACE FUNCTION public.change_actor()
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  select coalesce(change_context()->'Actor', '{"Type":"System"}'::jsonb)::text
$function$
;
CREATE OR REPLACE FUNCTION public.change_context()
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  select coalesce(nullif(current_setting('omni.change', true), ''), '{"Actor":{"Type":"System"}}')::jsonb
$function$
;
CREATE OR REPLACE FUNCTION public.changes_of_attribute_types()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('attribute_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_device_types()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('device_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_invitations()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_members()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_price_types()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Description', description, 'PriceTypeSymbol', symbol)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_changes('price_type', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_webhook_subscription_updates()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$
;
CREATE OR REPLACE FUNCTION public.changes_of_webhook_subscriptions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$
;
CREATE OR REPLACE FUNCTION public.count_catalog_items()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_count bigint;
begin
  if tg_op = 'INSERT' then
    for v_tenant, v_count in select tenant_id, count(*) from new_rows group by tenant_id order by 1 loop
      insert into catalog_item_counts as c (tenant_id, items, changes) values (v_tenant, v_count, 1)
        on conflict (tenant_id) do update set items = c.items + excluded.items, changes = c.changes + 1;
    end loop;
  else
    for v_tenant, v_count in select tenant_id, count(*) from old_rows group by tenant_id order by 1 loop
      update catalog_item_counts set items = items - v_count, changes = changes + 1
       where tenant_id = v_tenant;
    end loop;
  end if;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.defer_constraints()
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
begin
  set constraints all deferred;
  return true;
end $function$
;
CREATE OR REPLACE FUNCTION public.define_statement_triggers(p_table text, p_function text, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_op text;
begin
  foreach v_op in array array['insert', 'update', 'delete'] loop
    perform define_trigger(p_table, format('%s_%s_%sd', p_table, p_kind, rtrim(v_op, 'e')), format(
      'create or replace trigger %I after %s on %I referencing %s table as changed
     for each statement execute function %I()',
      format('%s_%s_%sd', p_table, p_kind, rtrim(v_op, 'e')), v_op, p_table,
      case v_op when 'delete' then 'old' else 'new' end, p_function));
  end loop;
end $function$
;
CREATE OR REPLACE FUNCTION public.define_trigger(p_table text, p_name text, p_ddl text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
declare
  v_made_from text := 'md5:' || md5(p_ddl);
begin
  if exists (select 1 from pg_trigger t
              where t.tgrelid = to_regclass(p_table) and t.tgname = p_name
                and obj_description(t.oid, 'pg_trigger') = v_made_from) then
    return false;
  end if;
  execute p_ddl;
  execute format('comment on trigger %I on %s is %L', p_name, p_table, v_made_from);
  return true;
end $function$
;
CREATE OR REPLACE FUNCTION public.endpoint_data(p_service_name text, p_status smallint, p_tier smallint, p_admin_mail text, p_created_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  select json_build_object('ServiceName', p_service_name, 'Status', p_status, 'ServiceTier', p_tier,
    'AdminMail', p_admin_mail,
    'CreationDate', to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$function$
;
CREATE OR REPLACE FUNCTION public.event_feed_place(p_tenant integer, p_limit integer, p_except_tx bigint)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
declare
  v_head bigint;
  v_placed integer;
begin
  insert into event_feed_heads as h (tenant_id, position) values (p_tenant, 0)
    on conflict (tenant_id) do nothing;
  select position into v_head from event_feed_heads where tenant_id = p_tenant for update;
  update events e set position = v_head + n.n
    from (select id, row_number() over (order by id) as n
            from events where tenant_id = p_tenant and position is null
             and tx_id is distinct from p_except_tx
           order by id limit p_limit) n
   where e.tenant_id = p_tenant and e.id = n.id;
  get diagnostics v_placed = row_count;
  if v_placed > 0 then
    update event_feed_heads set position = v_head + v_placed where tenant_id = p_tenant;
  end if;
  return v_placed;
end $function$
;
CREATE OR REPLACE FUNCTION public.event_feed_sequence(p_tenant integer, p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
begin
  return event_feed_place(p_tenant, p_limit, null);
end $function$
;
CREATE OR REPLACE FUNCTION public.event_transaction_key()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
declare
  v_key text := current_setting('omni.event_transaction_key', true);
begin
  if v_key is null or v_key = '' then
    v_key := (('x' || left(replace(gen_random_uuid()::text, '-', ''), 16))::bit(64)::bigint)::text;
    perform set_config('omni.event_transaction_key', v_key, true);
  end if;
  return v_key::bigint;
end $function$
;
CREATE OR REPLACE FUNCTION public.event_type_merge(earlier text, later text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select case when later like '%.deleted' then later when earlier like '%.created' then earlier else later end
$function$
;
CREATE OR REPLACE FUNCTION public.events_of_apps()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_assets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'FileName', file_name, 'MimeType', mime_type, 'Size', size)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('asset', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_brand_assets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_brands bigint[];
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_brands in select tenant_id, array_agg(distinct brand_id) from changed group by tenant_id loop
    select array_agg(b.tenant_id), array_agg(b.id::text), array_agg(brand_data(b.id, b.name)) into v_tenants, v_ids, v_data
      from brands b where b.tenant_id = v_tenant and b.id = any(v_brands);
    perform record_events('brand', tg_op, 'updated', v_tenants, v_ids, v_data);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_brands()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text), array_agg(brand_data(id, name)) into v_tenants, v_ids, v_data
    from changed;
  perform record_events('brand', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_categories()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_categories bigint[];
  v_with bigint[];
  v_metadata json[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_categories in select tenant_id, array_agg(id) from changed group by tenant_id loop
    select category_ids, metadata into v_with, v_metadata from category_metadata_json(v_tenant, v_categories);
    select array_agg(c.id::text), array_agg(category_data(c.id, c.name, c.short_description, c.long_description, c.parent_id, m.entries)) into v_ids, v_data
      from changed c left join unnest(v_with, v_metadata) as m (category_id, entries) on m.category_id = c.id
     where c.tenant_id = v_tenant;
    perform record_events('category', tg_op, null, array_fill(v_tenant, array[coalesce(cardinality(v_ids), 0)]), v_ids, v_data);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_category_assets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_categories bigint[];
  v_with bigint[];
  v_metadata json[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_categories in select tenant_id, array_agg(distinct category_id) from changed group by tenant_id loop
    select category_ids, metadata into v_with, v_metadata from category_metadata_json(v_tenant, v_categories);
    select array_agg(g.id::text), array_agg(category_data(g.id, g.name, g.short_description, g.long_description, g.parent_id, m.entries)) into v_ids, v_data
      from categories g left join unnest(v_with, v_metadata) as m (category_id, entries) on m.category_id = g.id
     where g.tenant_id = v_tenant and g.id = any(v_categories);
    perform record_events('category', tg_op, 'updated', array_fill(v_tenant, array[coalesce(cardinality(v_ids), 0)]), v_ids, v_data);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_endpoint_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(service_name), array_agg(endpoint_data(service_name, status, service_tier, admin_mail, created_at))
    into v_tenants, v_ids, v_data from changed;
  perform record_events('integration_endpoint', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_endpoint_status()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(n.tenant_id), array_agg(n.service_name), array_agg(endpoint_data(n.service_name, n.status, n.service_tier, n.admin_mail, n.created_at))
    into v_tenants, v_ids, v_data
    from changed n join before_rows o on o.tenant_id = n.tenant_id
   where o.status is distinct from n.status;
  perform record_events('integration_endpoint', tg_op, 'status_changed', v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_item_assets()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_items bigint[];
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  for v_tenant, v_items in select tenant_id, array_agg(distinct item_id) from changed group by tenant_id loop
    select array_agg(tenant_id), array_agg(id::text), array_agg(document) into v_tenants, v_ids, v_data
      from items where tenant_id = v_tenant and id = any(v_items);
    perform record_events('item', tg_op, 'updated', v_tenants, v_ids, v_data);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_items()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text), array_agg(document) into v_tenants, v_ids, v_data from changed;
  perform record_events('item', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_logical_devices()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id),
         array_agg(json_build_object('DeviceId', id, 'PhysicalDeviceId', physical_device_id,
                     'Description', description, 'DeviceTypeId', device_type_id,
                     'ExpirationDate', to_char(expiration_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'Metadata', metadata)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('logical_device', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_physical_devices()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id),
         array_agg(json_build_object('DeviceId', id, 'Description', description, 'StoreId', store_id)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('physical_device', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_stores()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Name', name, 'Description', description, 'Address', address,
                     'Location', json_build_object('Longitude', longitude, 'Latitude', latitude))::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('store', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.events_of_tags()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_ids text[];
  v_data text[];
begin
  select array_agg(tenant_id), array_agg(id::text),
         array_agg(json_build_object('Id', id, 'Name', name, 'Description', description)::text)
    into v_tenants, v_ids, v_data from changed;
  perform record_events('tag', tg_op, null, v_tenants, v_ids, v_data);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.identity_to_sequence(tbl regclass, col text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  seq text := pg_get_serial_sequence(tbl::text, col);
  col_type text;
  last bigint;
  called boolean;
begin
  select format_type(a.atttypid, null) into col_type
    from pg_attribute a where a.attrelid = tbl and a.attname = col;
  execute format('select last_value, is_called from %s', seq) into last, called;
  execute format('alter table %s alter column %I drop identity', tbl, col);
  execute format('create sequence %s as %s owned by %s.%I', seq, col_type, tbl, col);
  perform setval(seq, last, called);
  execute format('alter table %s alter column %I set default nextval(%L::regclass)', tbl, col, seq);
end $function$
;
CREATE OR REPLACE FUNCTION public.ids_to_bigint(tbl regclass, cols text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  col text;
  seq text;
  fresh text;
  last bigint;
  called boolean;
  col_type text;
  col_default text;
  numbered text[] := '{}';
  changes text[] := '{}';
begin
  foreach col in array cols loop
    select format_type(a.atttypid, null), pg_get_expr(d.adbin, d.adrelid) into col_type, col_default
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = tbl and a.attname = col and not a.attisdropped;
    if col_type is null then
      raise exception 'ids_to_bigint: % has no column %', tbl, col;
    end if;
    seq := pg_get_serial_sequence(tbl::text, col);
    if seq is not null then
      fresh := (select relname from pg_class where oid = seq::regclass) || '_bigint';
      execute format('select last_value, is_called from %s', seq) into last, called;
      execute format('create sequence %I as bigint', fresh);
      perform setval(quote_ident(fresh), last, called);
      execute format('alter table %s alter column %I drop default', tbl, col);
      execute format('drop sequence %s', seq);
      numbered := numbered || array[col, fresh];
      changes := changes || format('alter column %I type bigint', col);
    elsif col_type = 'integer' and col_default is null then
      changes := changes || format('alter column %I type bigint', col);
    elsif col_type = 'integer[]' and col_default is null then
      changes := changes || format('alter column %I type bigint[]', col);
    elsif col_type = 'integer[]' and col_default = '''{}''::integer[]' then
      changes := changes || format('alter column %I type bigint[], alter column %I set default ''{}''', col, col);
    else
      raise exception 'ids_to_bigint: %.% is % with default %', tbl, col, col_type, col_default;
    end if;
  end loop;
  execute format('alter table %s %s', tbl, array_to_string(changes, ', '));
  -- Owned before it is the default: Citus refuses OWNED BY on a sequence it has distributed.
  for i in 1 .. coalesce(cardinality(numbered), 0) by 2 loop
    execute format('alter sequence %I owned by %s.%I', numbered[i + 1], tbl, numbered[i]);
    execute format('alter table %s alter column %I set default nextval(%L::regclass)',
                   tbl, numbered[i], numbered[i + 1]);
    execute format('alter sequence %I rename to %I', numbered[i + 1], left(numbered[i + 1], -length('_bigint')));
  end loop;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_attribute_json(p_type_id bigint, p_value_id bigint, p_value text, p_type_name text)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select '{"TypeId":' || json_text(p_type_id) || ',"TypeValueId":' || json_text(p_value_id) ||
    ',"Value":' || json_text(p_value) || ',"TypeName":' || json_text(p_type_name) || '}'
$function$
;
CREATE OR REPLACE FUNCTION public.item_document(i anyelement)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
declare
  v_prices text;
  v_attributes text;
  v_tags text;
begin
  select coalesce(string_agg(item_price_json(p.id, p.item_id, p.normal_price, p.discount_price, p.price_type_id, t.symbol),
                             ',' order by p.price_type_id), '')
    into v_prices
    from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
   where p.tenant_id = i.tenant_id and p.item_id = i.id;
  select coalesce(string_agg(item_attribute_json(a.type_id, a.value_id, v.value, d.description), ',' order by a.type_id), '')
    into v_attributes
    from item_attributes a
    join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
    join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
   where a.tenant_id = i.tenant_id and a.item_id = i.id;
  select coalesce(string_agg(item_tag_json(g.id, g.name, g.description), ',' order by g.id), '')
    into v_tags
    from item_tags m join tags g on g.tenant_id = m.tenant_id and g.id = m.tag_id
   where m.tenant_id = i.tenant_id and m.item_id = i.id;
  return item_document_text(i.id, i.sku, i.rfid, i.uuid, i.name, i.title, i.model, i.short_description,
    i.long_description, i.item_status_id, i.category_id, i.brand_id, i.default_item_id, i.in_stock,
    i.public_web_link, i.rating, i.like_count, i.date_added, i.date_modified, v_prices, v_attributes, v_tags);
end $function$
;
CREATE OR REPLACE FUNCTION public.item_document_text(p_id bigint, p_sku text, p_rfid text, p_uuid text, p_name text, p_title text, p_model text, p_short_description text, p_long_description text, p_item_status_id smallint, p_category_id bigint, p_brand_id bigint, p_default_item_id bigint, p_in_stock boolean, p_public_web_link text, p_rating numeric, p_like_count integer, p_date_added timestamp with time zone, p_date_modified timestamp with time zone, p_prices text, p_attributes text, p_tags text)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select json_ascii(
    '{"Id":' || json_text(p_id) || ',"SKU":' || json_text(p_sku) || ',"RFID":' || json_text(p_rfid) ||
    ',"UUID":' || json_text(p_uuid) || ',"Name":' || json_text(p_name) || ',"Title":' || json_text(p_title) ||
    ',"Model":' || json_text(p_model) || ',"ShortDescription":' || json_text(p_short_description) ||
    ',"LongDescription":' || json_text(p_long_description) || ',"ItemStatusId":' || json_text(p_item_status_id) ||
    ',"CategoryId":' || json_text(p_category_id) || ',"BrandId":' || json_text(p_brand_id) ||
    ',"DefaultItemId":' || json_text(p_default_item_id) || ',"InStock":' || json_text(p_in_stock) ||
    ',"PublicWebLink":' || json_text(p_public_web_link) || ',"Rating":' || json_text(p_rating::float8) ||
    ',"LikeCount":' || json_text(p_like_count) ||
    ',"Prices":[' || p_prices || '],"DynamicAttributes":[' || p_attributes || '],"Tags":[' || p_tags ||
    '],"DateAdded":"' || to_char(p_date_added at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
    '","DateModified":"' || to_char(p_date_modified at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}')
$function$
;
CREATE OR REPLACE FUNCTION public.item_price_json(p_id bigint, p_item_id bigint, p_normal numeric, p_discount numeric, p_type_id bigint, p_symbol text)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select '{"PriceId":' || json_text(p_id) || ',"ItemId":' || json_text(p_item_id) ||
    ',"NormalPrice":' || json_text(p_normal::float8) || ',"DiscountPrice":' || json_text(p_discount::float8) ||
    ',"PriceTypeId":' || json_text(p_type_id) || ',"PriceTypeSymbol":' || json_text(p_symbol) || '}'
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_count(p_tenants integer[], p_statuses smallint[], p_masters boolean[], p_sign integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  r record;
begin
  for r in
    select tenant_id, item_status_id, master, count(*) as n
      from unnest(p_tenants, p_statuses, p_masters) as u (tenant_id, item_status_id, master)
     group by 1, 2, 3 order by 1, 2, 3
  loop
    insert into item_search_counts as c (tenant_id, item_status_id, master, items)
      values (r.tenant_id, r.item_status_id, r.master, p_sign * r.n)
    on conflict (tenant_id, item_status_id, master) do update set items = c.items + excluded.items;
  end loop;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_count_rows(p_rows item_search_rows[], p_sign integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_tenants integer[];
  v_statuses smallint[];
  v_masters boolean[];
begin
  select array_agg(r.tenant_id), array_agg(r.item_status_id),
         array_agg(r.default_item_id is null or r.default_item_id = r.item_id)
    into v_tenants, v_statuses, v_masters
    from unnest(p_rows) as r;
  perform item_search_count(v_tenants, v_statuses, v_masters, p_sign);
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_mark(p_tenant integer, p_level integer)
 RETURNS tsquery
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select ('''' || p_tenant || ' ~s' || p_level || '''')::tsquery
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_query(p_tenant integer, p_words text[], p_prefix_last boolean, p_prefix_all boolean, p_typos boolean, p_weights text)
 RETURNS tsquery
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
declare
  v_weights text := case when p_weights <> '' then ':' || p_weights else '' end;
  v_terms text[] := '{}';
  v_word text;
  v_n integer := 0;
  v_prefix boolean;
  v_completions text[];
  v_expanded boolean;
  v_alternatives text[];
begin
  foreach v_word in array p_words loop
    v_n := v_n + 1;
    v_word := search_fold(v_word);
    v_prefix := p_prefix_all or (v_n = cardinality(p_words) and p_prefix_last);
    v_expanded := false;
    if v_prefix and v_word ~ '^[[:alpha:]]{4,}$' then
      v_completions := array(
        select s.word from item_search_words s
         where s.tenant_id = p_tenant
           and s.word collate "C" > v_word and s.word collate "C" < v_word || chr(1114111)
         limit 65);
      v_expanded := cardinality(v_completions) <= 64;
    end if;
    v_alternatives := array[quote_literal(v_word) ||
      case when v_prefix and not v_expanded then ':*' || p_weights else v_weights end];
    if v_expanded then
      v_alternatives := v_alternatives || array(select quote_literal(c) || v_weights from unnest(v_completions) c);
    end if;
    if p_typos and length(v_word) >= 5 and v_word ~ '^[[:alpha:]]+$' then
      v_alternatives := v_alternatives ||
        array(select quote_literal(t) || v_weights from item_search_typo_words(p_tenant, v_word) t);
      v_alternatives := v_alternatives || array(
        select quote_literal(s.word) || v_weights from item_search_words s
         where s.tenant_id = p_tenant and s.word <> v_word
           and s.word = any(array(select substr(v_word, 1, i - 1) || substr(v_word, i + 1, 1) || substr(v_word, i, 1)
                                         || substr(v_word, i + 2)
                                    from generate_series(1, length(v_word) - 1) as i)));
    end if;
    v_terms := v_terms || ('(' || array_to_string(v_alternatives, ' | ') || ')');
  end loop;
  if cardinality(v_terms) = 0 then
    return null;
  end if;
  return item_search_scoped_query(p_tenant, to_tsquery('simple', array_to_string(v_terms, ' & ')));
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_row(p_tenant integer, p_id bigint, p_status smallint, p_default_item bigint, p_category bigint, p_brand bigint, p_title text, p_name text, p_date_added timestamp with time zone, p_rating numeric, p_tag_ids bigint[], p_value_ids bigint[], p_price_type_ids bigint[], p_prices double precision[], p_vector tsvector)
 RETURNS item_search_rows
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select p_tenant, p_id, p_status, p_default_item, p_category, p_brand, lower(p_title), p_date_added, p_rating,
         p_tag_ids, p_value_ids, p_price_type_ids, p_prices,
         item_search_scoped(p_tenant, p_vector || item_search_sample_marks(p_id)),
         item_search_scoped(p_tenant,
           setweight(to_tsvector('simple', search_fold(coalesce(p_title, '') || ' ' || coalesce(p_name, ''))), 'A'))
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_rows_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_items bigint[];
  v_statuses smallint[];
  v_masters boolean[];
begin
  for v_tenant, v_items in select tenant_id, array_agg(id) from old_rows group by tenant_id loop
    with gone as (
      delete from item_search_rows where tenant_id = v_tenant and item_id = any(v_items)
      returning item_status_id, default_item_id is null or default_item_id = item_id as master
    )
    select array_agg(item_status_id), array_agg(master) into v_statuses, v_masters from gone;
    if v_statuses is not null then
      perform item_search_count(array_fill(v_tenant, array[cardinality(v_statuses)]),
                                v_statuses, v_masters, -1);
    end if;
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_rows_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_rows item_search_rows[];
begin
  select array_agg(item_search_row(n.tenant_id, n.id, n.item_status_id, n.default_item_id, n.category_id,
           n.brand_id, n.title, n.name, n.date_added, n.rating, n.facet_tag_ids, n.facet_value_ids,
           n.facet_price_type_ids, n.facet_prices, n.search_vector))
    into v_rows from new_rows n;
  insert into item_search_rows select * from unnest(v_rows);
  perform item_search_count_rows(v_rows, 1);
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_rows_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_before item_search_rows[];
  v_after item_search_rows[];
  v_moved_before item_search_rows[];
  v_moved_after item_search_rows[];
begin
  for v_tenant in select distinct tenant_id from new_rows loop
    select array_agg(item_search_row(o.tenant_id, o.id, o.item_status_id, o.default_item_id, o.category_id,
             o.brand_id, o.title, o.name, o.date_added, o.rating, o.facet_tag_ids, o.facet_value_ids,
             o.facet_price_type_ids, o.facet_prices, o.search_vector)),
           array_agg(item_search_row(n.tenant_id, n.id, n.item_status_id, n.default_item_id, n.category_id,
             n.brand_id, n.title, n.name, n.date_added, n.rating, n.facet_tag_ids, n.facet_value_ids,
             n.facet_price_type_ids, n.facet_prices, n.search_vector))
      into v_before, v_after
      from old_rows o join new_rows n on n.tenant_id = o.tenant_id and n.id = o.id
     where n.tenant_id = v_tenant;
    with written as (
      update item_search_rows s
         set item_status_id = (c.a).item_status_id, default_item_id = (c.a).default_item_id,
             category_id = (c.a).category_id, brand_id = (c.a).brand_id, title_key = (c.a).title_key,
             date_added = (c.a).date_added, rating = (c.a).rating, facet_tag_ids = (c.a).facet_tag_ids,
             facet_value_ids = (c.a).facet_value_ids, facet_price_type_ids = (c.a).facet_price_type_ids,
             facet_prices = (c.a).facet_prices, search_vector = (c.a).search_vector,
             title_vector = (c.a).title_vector
        from (select unnest(v_before) as b, unnest(v_after) as a) as c
       where s.tenant_id = v_tenant and s.item_id = (c.a).item_id
         and (s.item_status_id, s.default_item_id, s.category_id, s.brand_id, s.title_key, s.date_added,
              s.rating, s.facet_tag_ids, s.facet_value_ids, s.facet_price_type_ids, s.facet_prices,
              s.search_vector, s.title_vector)
             is distinct from
             ((c.a).item_status_id, (c.a).default_item_id, (c.a).category_id, (c.a).brand_id, (c.a).title_key,
              (c.a).date_added, (c.a).rating, (c.a).facet_tag_ids, (c.a).facet_value_ids,
              (c.a).facet_price_type_ids, (c.a).facet_prices, (c.a).search_vector, (c.a).title_vector)
      returning c.b, c.a,
                (c.b).item_status_id <> (c.a).item_status_id
                or ((c.b).default_item_id is null or (c.b).default_item_id = (c.b).item_id)
                   <> ((c.a).default_item_id is null or (c.a).default_item_id = (c.a).item_id) as moved
    )
    select array_agg(b) filter (where moved), array_agg(a) filter (where moved)
      into v_moved_before, v_moved_after
      from written;
    if v_moved_before is not null then
      perform item_search_count_rows(v_moved_before, -1);
      perform item_search_count_rows(v_moved_after, 1);
    end if;
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_sample_level(p_item bigint)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select least(10, coalesce(nullif(position('1' in (((p_item::numeric * 2654435761) % 4294967296)::bigint::bit(32))::text), 0) - 1, 32))
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_sample_marks(p_item bigint)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select array_to_tsvector(array(select '~s' || k from generate_series(1, item_search_sample_level(p_item)) k))
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_scoped(p_tenant integer, p_vector tsvector)
 RETURNS tsvector
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select substr(replace(' ' || p_vector::text, ' ''', ' ''' || p_tenant || ' '), 2)::tsvector
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_scoped_query(p_tenant integer, p_query tsquery)
 RETURNS tsquery
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select regexp_replace(p_query::text, '''((?:[^'']|'''')*)''', '''' || p_tenant || ' \1''', 'g')::tsquery
$function$
;
CREATE OR REPLACE FUNCTION public.item_search_typo_words(p_tenant integer, p_word text)
 RETURNS SETOF text
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
begin
  return query execute format(
    'select s.word from item_search_words s
      where s.tenant_id = %s and s.word %% %L and s.word <> %L and s.word ~ ''^[[:alpha:]]+$''
        and levenshtein_less_equal(s.word, %L, 1) <= 1',
    p_tenant, p_word, p_word, p_word);
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_words_from_new_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_words text[];
begin
  for v_tenant, v_words in
    select n.tenant_id, array_agg(distinct w order by w)
      from new_rows n, unnest(tsvector_to_array(n.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     group by n.tenant_id
  loop
    insert into item_search_words (tenant_id, word)
      select v_tenant, w from unnest(v_words) w order by w
    on conflict do nothing;
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_search_words_from_row()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into item_search_words (tenant_id, word)
    select new.tenant_id, w from unnest(tsvector_to_array(new.search_vector)) w
     where w ~ '^[[:alpha:]]{4}'
     order by w
  on conflict do nothing;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.item_tag_json(p_id bigint, p_name text, p_description text)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select '{"Id":' || json_text(p_id) || ',"Name":' || json_text(p_name) || ',"Description":' || json_text(p_description) || '}'
$function$
;
CREATE OR REPLACE FUNCTION public.items_build_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' and new.document is not null
     and current_setting('omni.item_documents_given', true) = 'on' then
    return new;
  end if;
  new.document := item_document(new);
  new.facet_tag_ids := array(select tag_id from item_tags
                              where tenant_id = new.tenant_id and item_id = new.id order by tag_id);
  new.facet_value_ids := array(select value_id from item_attributes
                                where tenant_id = new.tenant_id and item_id = new.id order by type_id);
  select coalesce(array_agg(price_type_id order by price_type_id), '{}'),
         coalesce(array_agg(coalesce(discount_price, normal_price)::float8 order by price_type_id), '{}')
    into new.facet_price_type_ids, new.facet_prices
    from item_prices where tenant_id = new.tenant_id and item_id = new.id;
  return new;
end $function$
;
CREATE OR REPLACE FUNCTION public.items_refresh_for_attribute_type()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_attributes where tenant_id = new.tenant_id and type_id = new.id) a
   where i.tenant_id = new.tenant_id and i.id = a.item_id;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.items_refresh_for_price_type()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_prices where tenant_id = new.tenant_id and price_type_id = new.id) p
   where i.tenant_id = new.tenant_id and i.id = p.item_id;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.items_refresh_for_tag()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update items i set document = null, version = i.version + 1, date_modified = now()
    from (select distinct item_id from item_tags where tenant_id = new.tenant_id and tag_id = new.id) m
   where i.tenant_id = new.tenant_id and i.id = m.item_id;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.items_refresh_from_new()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  v_tenant integer;
  v_items bigint[];
begin
  for v_tenant, v_items in
    select tenant_id, array_agg(distinct item_id) from changed group by tenant_id
  loop
    update items set document = null, version = version + 1, date_modified = now()
     where tenant_id = v_tenant and id = any(v_items);
  end loop;
  return null;
end $function$
;
CREATE OR REPLACE FUNCTION public.json_ascii(document text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
declare
  ch text;
  code integer;
begin
  if document !~ '[^\x01-\x7f]' then
    return document;
  end if;
  for ch in select distinct m[1] from regexp_matches(document, '([^\x01-\x7f])', 'g') as m loop
    code := ascii(ch);
    document := replace(document, ch, case
      when code < 65536 then '\u' || lpad(to_hex(code), 4, '0')
      else '\u' || to_hex(55296 + ((code - 65536) >> 10)) || '\u' || to_hex(56320 + ((code - 65536) & 1023))
    end);
  end loop;
  return document;
end $function$
;
CREATE OR REPLACE FUNCTION public.json_text(value anyelement)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select coalesce(to_json(value)::text, 'null')
$function$
;
CREATE OR REPLACE FUNCTION public.member_data(p_id uuid, p_username text, p_name text, p_email text, p_roles text[], p_must_change boolean, p_password_set_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select json_build_object('Id', p_id, 'Username', p_username, 'Name', p_name, 'Email', p_email,
    'Roles', member_roles_json(p_roles), 'MustChangePassword', p_must_change,
    'Password', case when p_password_set_at is null then 'set'
      else 'set ' || to_char(p_password_set_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') end)::text
$function$
;
CREATE OR REPLACE FUNCTION public.member_password_set_at()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if new.password_hash is distinct from old.password_hash then
    new.password_set_at := now();
  end if;
  return new;
end $function$
;
CREATE OR REPLACE FUNCTION public.member_roles_json(p_roles text[])
 RETURNS json
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select coalesce(json_agg(json_build_object('Id', r) order by r), '[]'::json) from unnest(p_roles) as r
$function$
;
CREATE OR REPLACE FUNCTION public.notify_after_commit(p_channel text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  case current_setting('omni.notify_after_commit', true)
    when 'notify' then
      perform pg_notify(p_channel, '');
    when 'notice' then
      raise notice using message = 'notify after commit: ' || p_channel;
    else
      null;
  end case;
end $function$
;
CREATE OR REPLACE FUNCTION public.oauth_apps_build_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  new.document := app_document(new);
  if tg_op = 'UPDATE' and new.secret_hash is distinct from old.secret_hash then
    new.secret_set_at := now();
  end if;
  return new;
end $function$
;
CREATE OR REPLACE FUNCTION public.record_changes(p_resource text, p_op text, p_action text, p_tenants integer[], p_ids text[], p_data text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_context jsonb := change_context();
  v_actor text := coalesce(v_context->'Actor', '{"Type":"System"}'::jsonb)::text;
  v_actor_key text := lower(coalesce(v_context->'Actor'->>'Type', 'System')) || ':'
    || coalesce(v_context->'Actor'->>'Id', '');
  v_details text := (v_context - 'Actor')::text;
  v_action text := coalesce(p_action,
    case p_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
  v_restore jsonb := v_context->'Restore';
  v_key bigint := event_transaction_key();
  v_tenant integer;
begin
  for v_tenant in select distinct t from unnest(p_tenants) as t loop
    continue when not exists (select 1 from tenants where id = v_tenant);
    insert into change_history as h
        (tenant_id, tx_id, resource, resource_id, action, version, actor, actor_key, context, data)
      select v_tenant, v_key, p_resource, r.id,
             case when v_action <> 'deleted' and v_restore->>'Resource' = p_resource
                       and v_restore->>'ResourceId' = r.id then 'restored' else v_action end,
             -- A creation too: an id a client chooses (a physical device's, the endpoint's) may
             -- come back after a delete, and its versions go on from where they were.
             coalesce((select max(p.version) from change_history p
                        where p.tenant_id = v_tenant and p.resource = p_resource
                          and p.resource_id = r.id), 0) + 1,
             v_actor, v_actor_key, v_details, r.data
        from unnest(p_tenants, p_ids, p_data) as r (tenant_id, id, data)
       where r.tenant_id = v_tenant
    on conflict (tenant_id, tx_id, resource, resource_id, changed_at) do update
      set data = excluded.data, action = change_action_merge(h.action, excluded.action);
  end loop;
end $function$
;
CREATE OR REPLACE FUNCTION public.record_changes_triggers(p_table text, p_function text)
 RETURNS void
 LANGUAGE sql
AS $function$
  select define_statement_triggers(p_table, p_function, 'changes')
$function$
;
CREATE OR REPLACE FUNCTION public.record_events(p_resource text, p_op text, p_action text, p_tenants integer[], p_ids text[], p_data text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  v_type text := p_resource || '.' || coalesce(p_action,
    case p_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end);
  v_tenant integer;
  v_recorded boolean := false;
  -- Once per call: in the select list below it would run once per row (it is volatile).
  v_key bigint := event_transaction_key();
  v_id bigint;
  v_range bigint;
  v_actor text := change_actor();
begin
  -- Every change the feed records is a change of the history too (025-change-history.sql).
  perform record_changes(p_resource, p_op, p_action, p_tenants, p_ids, p_data);
  for v_tenant in select distinct t from unnest(p_tenants) as t loop
    continue when not exists (select 1 from tenants where id = v_tenant);
    insert into events as e (tenant_id, tx_id, resource, resource_id, type, data, actor)
      select v_tenant, v_key, p_resource, r.id, v_type, r.data, v_actor
        from unnest(p_tenants, p_ids, p_data) as r (tenant_id, id, data)
       where r.tenant_id = v_tenant
    on conflict (tenant_id, tx_id, resource, resource_id) do update
      set data = excluded.data, type = event_type_merge(e.type, excluded.type);
    continue when not found;
    v_recorded := true;
    -- The sequencer places waiting events in id order, and ids come from the sequence of the
    -- node that records them: on Citus a worker's own range (group g draws from g × 2^48), so
    -- after the tenant's shards moved to a worker of a lower group its next events have lower
    -- ids than those recorded before the move. Were both still waiting together, a resource's
    -- later change would be placed, and delivered, before its earlier one. So the first
    -- transaction that records an event on the new node places the waiting events recorded
    -- elsewhere (all committed: a move waits for the old node's writes) before it commits, and
    -- the events waiting for a position are only ever of one node.
    select id into v_id from events where tenant_id = v_tenant and tx_id = v_key limit 1;
    v_range := (v_id >> 48) << 48;
    if exists (select 1 from events where tenant_id = v_tenant and position is null
                 and (id < v_range or id >= v_range + (1::bigint << 48))) then
      perform event_feed_place(v_tenant, 2147483647, v_key);
    end if;
  end loop;
  -- The webhook dispatchers wait on this channel (src/modules/events/dispatcher-wakeups.ts).
  if v_recorded then
    perform notify_after_commit('event_feed');
  end if;
end $function$
;
CREATE OR REPLACE FUNCTION public.record_events_triggers(p_table text, p_function text)
 RETURNS void
 LANGUAGE sql
AS $function$
  select define_statement_triggers(p_table, p_function, 'events')
$function$
;
CREATE OR REPLACE FUNCTION public.search_fold(t text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
  select regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, t)), '[!-/:-@[-`{-~]+', ' ', 'g')
$function$
;
CREATE OR REPLACE FUNCTION public.webhook_subscription_data(p_id bigint, p_url text, p_event_types text[], p_description text, p_owner_email text, p_enabled boolean, p_disabled_reason text, p_failing_since timestamp with time zone, p_previous_expires timestamp with time zone, p_created_at timestamp with time zone, p_updated_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
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
$function$
;

-- Triggers
CREATE TRIGGER assets_events_deletd AFTER DELETE ON public.assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER assets_events_deleted AFTER DELETE ON public.assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER assets_events_insertd AFTER INSERT ON public.assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER assets_events_inserted AFTER INSERT ON public.assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER assets_events_updatd AFTER UPDATE ON public.assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER assets_events_updated AFTER UPDATE ON public.assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_assets();
CREATE TRIGGER brand_assets_events_deletd AFTER DELETE ON public.brand_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brand_assets_events_deleted AFTER DELETE ON public.brand_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brand_assets_events_insertd AFTER INSERT ON public.brand_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brand_assets_events_inserted AFTER INSERT ON public.brand_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brand_assets_events_updatd AFTER UPDATE ON public.brand_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brand_assets_events_updated AFTER UPDATE ON public.brand_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brand_assets();
CREATE TRIGGER brands_events_deletd AFTER DELETE ON public.brands REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER brands_events_deleted AFTER DELETE ON public.brands REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER brands_events_insertd AFTER INSERT ON public.brands REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER brands_events_inserted AFTER INSERT ON public.brands REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER brands_events_updatd AFTER UPDATE ON public.brands REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER brands_events_updated AFTER UPDATE ON public.brands REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_brands();
CREATE TRIGGER categories_events_deletd AFTER DELETE ON public.categories REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER categories_events_deleted AFTER DELETE ON public.categories REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER categories_events_insertd AFTER INSERT ON public.categories REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER categories_events_inserted AFTER INSERT ON public.categories REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER categories_events_updatd AFTER UPDATE ON public.categories REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER categories_events_updated AFTER UPDATE ON public.categories REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_categories();
CREATE TRIGGER category_assets_events_deletd AFTER DELETE ON public.category_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_assets_events_deleted AFTER DELETE ON public.category_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_assets_events_insertd AFTER INSERT ON public.category_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_assets_events_inserted AFTER INSERT ON public.category_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_assets_events_updatd AFTER UPDATE ON public.category_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_assets_events_updated AFTER UPDATE ON public.category_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_category_assets();
CREATE TRIGGER category_metadata_deleted AFTER DELETE ON public.category_metadata REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION categories_touch_from_metadata();
CREATE TRIGGER category_metadata_inserted AFTER INSERT ON public.category_metadata REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION categories_touch_from_metadata();
CREATE TRIGGER category_metadata_updated AFTER UPDATE ON public.category_metadata REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION categories_touch_from_metadata();
CREATE TRIGGER device_types_changes_deletd AFTER DELETE ON public.device_types REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_device_types();
CREATE TRIGGER device_types_changes_insertd AFTER INSERT ON public.device_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_device_types();
CREATE TRIGGER device_types_changes_updatd AFTER UPDATE ON public.device_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_device_types();
CREATE TRIGGER attribute_types_shown_in_items AFTER UPDATE OF description ON public.dynamic_attribute_types FOR EACH ROW WHEN ((old.description IS DISTINCT FROM new.description)) EXECUTE FUNCTION items_refresh_for_attribute_type();
CREATE TRIGGER dynamic_attribute_types_changes_deletd AFTER DELETE ON public.dynamic_attribute_types REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_attribute_types();
CREATE TRIGGER dynamic_attribute_types_changes_insertd AFTER INSERT ON public.dynamic_attribute_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_attribute_types();
CREATE TRIGGER dynamic_attribute_types_changes_updatd AFTER UPDATE ON public.dynamic_attribute_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_attribute_types();
CREATE TRIGGER integration_endpoints_events_deleted AFTER DELETE ON public.integration_endpoints REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_endpoint_rows();
CREATE TRIGGER integration_endpoints_events_inserted AFTER INSERT ON public.integration_endpoints REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_endpoint_rows();
CREATE TRIGGER integration_endpoints_events_updated AFTER UPDATE ON public.integration_endpoints REFERENCING OLD TABLE AS before_rows NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_endpoint_status();
CREATE TRIGGER item_assets_events_deletd AFTER DELETE ON public.item_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_assets_events_deleted AFTER DELETE ON public.item_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_assets_events_insertd AFTER INSERT ON public.item_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_assets_events_inserted AFTER INSERT ON public.item_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_assets_events_updatd AFTER UPDATE ON public.item_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_assets_events_updated AFTER UPDATE ON public.item_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_item_assets();
CREATE TRIGGER item_attributes_deleted AFTER DELETE ON public.item_attributes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_attributes_inserted AFTER INSERT ON public.item_attributes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_attributes_updated AFTER UPDATE ON public.item_attributes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_prices_deleted AFTER DELETE ON public.item_prices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_prices_inserted AFTER INSERT ON public.item_prices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_prices_updated AFTER UPDATE ON public.item_prices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_tags_deleted AFTER DELETE ON public.item_tags REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_tags_inserted AFTER INSERT ON public.item_tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER item_tags_updated AFTER UPDATE ON public.item_tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION items_refresh_from_new();
CREATE TRIGGER items_counted_on_delete AFTER DELETE ON public.items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_catalog_items();
CREATE TRIGGER items_counted_on_insert AFTER INSERT ON public.items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_catalog_items();
CREATE TRIGGER items_document BEFORE INSERT OR UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION items_build_document();
CREATE TRIGGER items_events_deletd AFTER DELETE ON public.items REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_events_deleted AFTER DELETE ON public.items REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_events_insertd AFTER INSERT ON public.items REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_events_inserted AFTER INSERT ON public.items REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_events_updatd AFTER UPDATE ON public.items REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_events_updated AFTER UPDATE ON public.items REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_items();
CREATE TRIGGER items_search_rows_on_delete AFTER DELETE ON public.items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION item_search_rows_deleted();
CREATE TRIGGER items_search_rows_on_insert AFTER INSERT ON public.items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION item_search_rows_inserted();
CREATE TRIGGER items_search_rows_on_update AFTER UPDATE ON public.items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION item_search_rows_updated();
CREATE TRIGGER items_search_words_on_insert AFTER INSERT ON public.items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION item_search_words_from_new_rows();
CREATE TRIGGER items_search_words_on_update AFTER UPDATE ON public.items FOR EACH ROW WHEN ((old.search_vector IS DISTINCT FROM new.search_vector)) EXECUTE FUNCTION item_search_words_from_row();
CREATE TRIGGER logical_devices_events_deletd AFTER DELETE ON public.logical_devices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER logical_devices_events_deleted AFTER DELETE ON public.logical_devices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER logical_devices_events_insertd AFTER INSERT ON public.logical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER logical_devices_events_inserted AFTER INSERT ON public.logical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER logical_devices_events_updatd AFTER UPDATE ON public.logical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER logical_devices_events_updated AFTER UPDATE ON public.logical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_logical_devices();
CREATE TRIGGER member_invitations_changes_deletd AFTER DELETE ON public.member_invitations REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_invitations();
CREATE TRIGGER member_invitations_changes_insertd AFTER INSERT ON public.member_invitations REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_invitations();
CREATE TRIGGER member_invitations_changes_updatd AFTER UPDATE ON public.member_invitations REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_invitations();
CREATE TRIGGER members_changes_deletd AFTER DELETE ON public.members REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_members();
CREATE TRIGGER members_changes_insertd AFTER INSERT ON public.members REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_members();
CREATE TRIGGER members_changes_updatd AFTER UPDATE ON public.members REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_members();
CREATE TRIGGER members_password_set_at BEFORE UPDATE ON public.members FOR EACH ROW EXECUTE FUNCTION member_password_set_at();
CREATE TRIGGER oauth_apps_document BEFORE INSERT OR UPDATE ON public.oauth_apps FOR EACH ROW EXECUTE FUNCTION oauth_apps_build_document();
CREATE TRIGGER oauth_apps_events_deletd AFTER DELETE ON public.oauth_apps REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER oauth_apps_events_deleted AFTER DELETE ON public.oauth_apps REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER oauth_apps_events_insertd AFTER INSERT ON public.oauth_apps REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER oauth_apps_events_inserted AFTER INSERT ON public.oauth_apps REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER oauth_apps_events_updatd AFTER UPDATE ON public.oauth_apps REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER oauth_apps_events_updated AFTER UPDATE ON public.oauth_apps REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_apps();
CREATE TRIGGER physical_devices_events_deletd AFTER DELETE ON public.physical_devices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER physical_devices_events_deleted AFTER DELETE ON public.physical_devices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER physical_devices_events_insertd AFTER INSERT ON public.physical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER physical_devices_events_inserted AFTER INSERT ON public.physical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER physical_devices_events_updatd AFTER UPDATE ON public.physical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER physical_devices_events_updated AFTER UPDATE ON public.physical_devices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_physical_devices();
CREATE TRIGGER price_types_changes_deletd AFTER DELETE ON public.price_types REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_price_types();
CREATE TRIGGER price_types_changes_insertd AFTER INSERT ON public.price_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_price_types();
CREATE TRIGGER price_types_changes_updatd AFTER UPDATE ON public.price_types REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_price_types();
CREATE TRIGGER price_types_shown_in_items AFTER UPDATE OF symbol ON public.price_types FOR EACH ROW WHEN ((old.symbol IS DISTINCT FROM new.symbol)) EXECUTE FUNCTION items_refresh_for_price_type();
CREATE TRIGGER stores_events_deletd AFTER DELETE ON public.stores REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER stores_events_deleted AFTER DELETE ON public.stores REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER stores_events_insertd AFTER INSERT ON public.stores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER stores_events_inserted AFTER INSERT ON public.stores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER stores_events_updatd AFTER UPDATE ON public.stores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER stores_events_updated AFTER UPDATE ON public.stores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_stores();
CREATE TRIGGER tags_events_deletd AFTER DELETE ON public.tags REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_events_deleted AFTER DELETE ON public.tags REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_events_insertd AFTER INSERT ON public.tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_events_inserted AFTER INSERT ON public.tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_events_updatd AFTER UPDATE ON public.tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_events_updated AFTER UPDATE ON public.tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION events_of_tags();
CREATE TRIGGER tags_shown_in_items AFTER UPDATE OF name, description ON public.tags FOR EACH ROW WHEN (((old.name IS DISTINCT FROM new.name) OR (old.description IS DISTINCT FROM new.description))) EXECUTE FUNCTION items_refresh_for_tag();
CREATE TRIGGER webhook_subscriptions_changes_deleted AFTER DELETE ON public.webhook_subscriptions REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_webhook_subscriptions();
CREATE TRIGGER webhook_subscriptions_changes_inserted AFTER INSERT ON public.webhook_subscriptions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_webhook_subscriptions();
CREATE TRIGGER webhook_subscriptions_changes_updated AFTER UPDATE ON public.webhook_subscriptions REFERENCING OLD TABLE AS previous NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION changes_of_webhook_subscription_updates();
