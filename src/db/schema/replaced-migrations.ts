// Migrations that were split or renamed when each module took its own migrations folder, and the
// versions that now hold their statements. A database that recorded an old version has already
// run those statements, so the runner records the new versions as applied instead of running
// them again; a fresh database never records an old version and runs the new ones. A new
// version never reuses an old one's name (a fresh database would otherwise mark the rest of the
// old migration's pieces applied without running them).
export const REPLACED_MIGRATIONS: Readonly<Record<string, readonly string[]>> = {
  '0001_tenants_and_oauth': ['0001_tenants', '0013_oauth_apps_and_keys'],
  '0003_integration': ['0003_integration_endpoints', '0017_notification_outbox'],
  '0007_outbox_claims': ['0018_notification_outbox_claims'],
  '0009_app_documents': ['0014_app_documents'],
  '0010_tenant_first_keys': [
    '0015_auth_invalidations_tenant_keys',
    '0019_notification_outbox_tenant_keys',
  ],
  '0012_versions_everywhere': ['0012_catalog_versions', '0016_one_signing_key'],
  '0030_storage': ['0030_assets_and_blobs', '0031_asset_relations'],
  '0100_events': [
    '0100_event_feed',
    '0101_catalog_events',
    '0102_asset_events',
    '0103_company_events',
    '0104_app_events',
    '0105_endpoint_events',
    '0106_webhooks',
  ],
};
