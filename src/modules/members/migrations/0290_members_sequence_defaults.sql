-- Members' and invitations' creation order from sequence defaults, not identity columns
-- (src/db/migrations/0280).
select identity_to_sequence('members', 'created_seq');
select identity_to_sequence('member_invitations', 'created_seq');
