-- The apps' list is in creation order (docs/api.md): by a sequence, not by created_at, whose
-- embedded clock reads whole milliseconds (src/db/migrations/0269_creation_sequence.sql).
select add_creation_sequence('oauth_apps', 'oauth_apps_list');
