-- Webhook subscription ids and the deliveries' references to them, 64-bit
-- (src/db/migrations/0301); the deliveries' own ids and the feed's were bigint already.
select ids_to_bigint('webhook_subscriptions', '{id}');
select ids_to_bigint('webhook_deliveries', '{subscription_id}');
