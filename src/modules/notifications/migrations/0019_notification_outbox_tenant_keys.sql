-- Ready to shard by tenant (Citus's distribution rule): every table of tenant data has tenant_id,
-- not null, in its primary key, every unique constraint and index, and every foreign key.
-- test/db/tenant-keys.test.ts reads the schema and holds every table to it.

-- Notifications belong to a tenant and go with it.
delete from notification_outbox where tenant_id is null;
alter table notification_outbox alter column tenant_id set not null;
alter table notification_outbox drop constraint notification_outbox_pkey;
alter table notification_outbox add primary key (tenant_id, id);
alter table notification_outbox drop constraint notification_outbox_tenant_id_fkey;
alter table notification_outbox add foreign key (tenant_id) references tenants (id) on delete cascade;
