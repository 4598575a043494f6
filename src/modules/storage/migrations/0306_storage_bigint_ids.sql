-- Asset ids 64-bit, as the other ids are (src/db/migrations/0301). The columns that refer to an
-- asset belong to the catalog and were changed by its own migration (0302).
select ids_to_bigint('assets', '{id}');
