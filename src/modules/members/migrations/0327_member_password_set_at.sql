-- When a member's password was last set: the change history shows this marker in place of the
-- password (src/modules/members/sql/member-history.sql), so that an entry says the password
-- changed without holding its hash. Unknown (null) for the passwords set before.
alter table members add column password_set_at timestamptz;
alter table members alter column password_set_at set default now();
