-- Webhooks follow the feed by position (src/db/migrations/0281_event_feed_positions.sql): a
-- subscription's cursor and a delivery's event are named by position and id. The values stay:
-- the kept events' positions are their former transaction ids.
alter table webhook_subscriptions rename column cursor_tx to cursor_position;
alter table webhook_deliveries rename column event_tx to event_position;

-- A subscription made or enabled at the feed's horizon (a snapshot's oldest running
-- transaction) may have a cursor above its tenant's last event: the tenant's head starts above
-- that too, or the next events would be placed behind the cursor.
insert into event_feed_heads as h (tenant_id, position)
  select tenant_id, max(cursor_position) from webhook_subscriptions group by tenant_id
  on conflict (tenant_id) do update set position = greatest(h.position, excluded.position);
