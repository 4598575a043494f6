-- When an app's secret was last set: the change history shows this marker in place of the secret
-- (src/modules/oauth/sql/app-documents.sql), so that an entry says the secret was rotated without
-- holding it or its hash. Unknown (null) for the secrets set before.
alter table oauth_apps add column secret_set_at timestamptz;
alter table oauth_apps alter column secret_set_at set default now();
