-- A delivery claims its notification for a while instead of holding a row lock during the SMTP
-- conversation: a record queued twice is sent once, and no transaction waits on a mail server.
alter table notification_outbox add column claimed_until timestamptz;
