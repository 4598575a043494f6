-- Store and device type ids from sequence defaults, not identity columns (src/db/migrations/0280).
select identity_to_sequence('stores', 'id');
select identity_to_sequence('device_types', 'id');
