-- Integration endpoint (contract §5.2): at most one per tenant. Service names are global (they
-- become host names) while the endpoint is being created or exists; a failed one frees its name.
create sequence integration_endpoint_generations;

create table integration_endpoints (
  tenant_id integer primary key references tenants (id) on delete cascade,
  service_name text not null,
  service_tier smallint not null,
  admin_mail text not null,
  status smallint not null,
  failure_reason text,
  subscription_key text,
  -- Each creation gets a new generation; its provisioning job only ever touches that one.
  generation bigint not null default nextval('integration_endpoint_generations'),
  job_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index integration_endpoints_service_name on integration_endpoints (lower(service_name)) where status in (1, 2);
create unique index integration_endpoints_subscription_key on integration_endpoints (subscription_key) where subscription_key is not null;

-- Gateway request counts per service and one-second window, shared by every instance.
create table gateway_rate_windows (
  service_name text not null,
  window_start bigint not null,
  requests integer not null,
  primary key (service_name, window_start)
);
