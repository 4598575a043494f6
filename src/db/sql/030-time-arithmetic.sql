-- Time arithmetic that Citus lets run inside an upsert's DO UPDATE or an update's SET: it runs
-- no function there but immutable ones, and adding an interval to a timestamptz is only stable
-- (a day or a month depends on the time zone setting). Seconds are the same whatever the zone:
-- through the epoch, the arithmetic is immutable.
create or replace function add_seconds(t timestamptz, seconds double precision) returns timestamptz
language sql immutable parallel safe strict as $$
  select to_timestamp(extract(epoch from t - 'epoch'::timestamptz) + seconds)
$$;
