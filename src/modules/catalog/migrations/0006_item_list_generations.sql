-- `changes` counts the inserts and deletes of a tenant's items: positions in the id order stay
-- the same while it does, which lets a deep page start from a remembered id (item-page-anchors).
alter table catalog_item_counts add column changes bigint not null default 0;

create or replace function count_catalog_items() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into catalog_item_counts as c (tenant_id, items, changes)
      select tenant_id, count(*), 1 from new_rows group by tenant_id
      on conflict (tenant_id) do update set items = c.items + excluded.items, changes = c.changes + 1;
  else
    update catalog_item_counts c set items = c.items - d.n, changes = c.changes + 1
      from (select tenant_id, count(*) as n from old_rows group by tenant_id) d
      where c.tenant_id = d.tenant_id;
  end if;
  return null;
end $$;
