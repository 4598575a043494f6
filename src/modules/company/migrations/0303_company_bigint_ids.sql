-- Store and device type ids and the devices' references to them, 64-bit (src/db/migrations/0301).
select ids_to_bigint('stores', '{id}');
select ids_to_bigint('physical_devices', '{store_id}');
select ids_to_bigint('device_types', '{id}');
select ids_to_bigint('logical_devices', '{device_type_id}');
