-- The hash chain's order and each tenant's retention of its change history (the history module:
-- src/modules/history/history-sealing.ts, history-retention.ts).
--
-- Sealed entries by their place in the tenant's chain: verification, the export and pruning walk
-- them in that order, a page at a time.
create index change_history_sequence on change_history (tenant_id, seq) where seq is not null;

-- A tenant's own retention (RetentionDays); without a row, HISTORY_RETENTION_DAYS. version is
-- the settings' ETag.
create table change_history_settings (
  tenant_id integer not null references tenants (id) on delete cascade,
  retention_days integer not null,
  version integer not null default 1,
  primary key (tenant_id)
);
