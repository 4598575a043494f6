-- The apps' creation order and the invalidations' order from sequence defaults, not identity
-- columns (src/db/migrations/0280).
select identity_to_sequence('oauth_apps', 'created_seq');
select identity_to_sequence('auth_invalidations', 'seq');
