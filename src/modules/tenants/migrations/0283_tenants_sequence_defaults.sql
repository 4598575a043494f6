-- The tenant's id from a sequence default, not an identity column (src/db/migrations/0280).
select identity_to_sequence('tenants', 'id');
