-- Members and invitations are listed in creation order (docs/api.md): by a sequence, not by
-- created_at, whose embedded clock reads whole milliseconds
-- (src/db/migrations/0269_creation_sequence.sql).
select add_creation_sequence('members', 'members_list');
select add_creation_sequence('member_invitations', 'member_invitations_list');
