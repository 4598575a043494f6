-- Price type symbols are unique within a tenant and category names among their siblings, both
-- case-insensitively (409 DuplicatePriceType, DuplicateCategoryName). A database from before the
-- rule may hold duplicates, which a unique index could not be built over: the services check
-- under a per-tenant advisory lock instead (catalog-name-rules.ts), and duplicates already there
-- stay (each keeps its name until it is renamed). These plain indexes make that check, and the
-- import's lookups by name, one index probe each; they build whatever the data holds.
create index categories_name on categories (tenant_id, lower(name), parent_id);
create index price_types_symbol on price_types (tenant_id, lower(symbol));
