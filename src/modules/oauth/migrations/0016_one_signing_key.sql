-- Two instances starting on an empty database at once each made a signing key; at most one key
-- signs (is not retired) at any time.
update signing_keys set retired_at = now()
 where retired_at is null
   and kid <> (select kid from signing_keys where retired_at is null order by created_at desc, kid limit 1);
create unique index signing_keys_one_active on signing_keys ((true)) where retired_at is null;
