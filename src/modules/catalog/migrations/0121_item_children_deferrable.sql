-- An item's prices, attributes and tags may be written before the item itself in one transaction
-- (the catalog import does, so that each item's document is built once, by the items' insert
-- trigger, with everything it shows). Their references to the item become deferrable, initially
-- immediate as before: only a transaction that asks (set constraints … deferred) checks them at
-- commit.
alter table item_prices alter constraint item_prices_tenant_id_item_id_fkey deferrable initially immediate;
alter table item_attributes alter constraint item_attributes_tenant_id_item_id_fkey deferrable initially immediate;
alter table item_tags alter constraint item_tags_tenant_id_item_id_fkey deferrable initially immediate;
