-- Ready to shard by tenant: a tenant table's unique indexes all include tenant_id, so the
-- platform-wide uniqueness of service names (they become host names) moves to a global table
-- (a Citus reference table). A name is held while its endpoint is being created or is live
-- (Status 1 or 2); a failed or deleted endpoint frees it. name_key is the lower-cased name.
create table integration_service_names (
  name_key text primary key,
  owner_tenant_id integer not null references tenants (id) on delete cascade
);
insert into integration_service_names (name_key, owner_tenant_id)
select lower(service_name), tenant_id from integration_endpoints where status in (1, 2);

drop index integration_endpoints_service_name;
-- The portal finds an endpoint by name whatever its status (a failed one shows its failure).
create index integration_endpoints_service_name on integration_endpoints (lower(service_name));

-- Subscription keys are 192 random bits and never looked up by value (the gateway finds the
-- endpoint by service name and compares the key), so they need no index, unique or not.
drop index integration_endpoints_subscription_key;

-- Deleting a tenant frees its name through the cascade.
create index integration_service_names_owner on integration_service_names (owner_tenant_id);
