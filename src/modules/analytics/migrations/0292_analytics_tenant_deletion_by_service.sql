-- A deleted tenant's analytics logs are deleted by the tenant deletion itself (the analytics
-- module's part of it: AnalyticsService.forgetTenant, called in the deleting transaction) instead
-- of a statement trigger on tenants: on Citus, tenants is a reference table, whose triggers run
-- on every node's copy of it, each deleting the same logs from the shards of every worker.
drop trigger analytics_logs_forget_tenants on tenants;
drop function analytics_logs_forget_tenants();
