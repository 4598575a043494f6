-- Claims of a webhook delivery whose lease ran out before its result was recorded: the sender's
-- process ended mid-delivery. A delivery lost JOB_CRASH_LIMIT times is given up (failed, with
-- the reason) instead of being sent again (src/modules/events/dispatcher.ts).
alter table webhook_deliveries add column lost_claims integer not null default 0;
