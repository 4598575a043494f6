-- An item's asset relations may be written before the item itself in one transaction, as its
-- prices, attributes and tags are (0121): the catalog import does, so that the relations' event
-- trigger, which sends an item.updated event with the item's document for every related item,
-- finds no item yet (the item's own insert sends item.created with the same document), instead
-- of rewriting each new item's event in the feed. The reference becomes deferrable, initially
-- immediate as before: only a transaction that asks (set constraints … deferred) checks it at
-- commit.
alter table item_assets alter constraint item_assets_tenant_id_item_id_fkey deferrable initially immediate;
