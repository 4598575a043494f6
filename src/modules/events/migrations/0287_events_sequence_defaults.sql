-- Subscription and delivery ids from sequence defaults, not identity columns (src/db/migrations/0280).
select identity_to_sequence('webhook_subscriptions', 'id');
select identity_to_sequence('webhook_deliveries', 'id');
