-- Catalog (contract §5.3). Ids are integers from one sequence per table (as in the v4 wire
-- format); every key and index starts with tenant_id.
create extension if not exists pg_trgm;

create table price_types (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  description text not null,
  symbol text not null,
  primary key (tenant_id, id)
);

create table brands (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  name text not null,
  primary key (tenant_id, id)
);
create unique index brands_name on brands (tenant_id, lower(name));

create table categories (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  name text not null,
  short_description text,
  long_description text,
  parent_id integer,
  version integer not null default 1,
  primary key (tenant_id, id),
  foreign key (tenant_id, parent_id) references categories (tenant_id, id)
);
create index categories_parent on categories (tenant_id, parent_id);

create table category_metadata (
  tenant_id integer not null,
  category_id integer not null,
  key text not null,
  value text not null,
  primary key (tenant_id, category_id, key),
  foreign key (tenant_id, category_id) references categories (tenant_id, id) on delete cascade
);

create table tags (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  name text not null,
  description text,
  primary key (tenant_id, id)
);
create unique index tags_name on tags (tenant_id, lower(name));

create table dynamic_attribute_types (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  description text not null,
  version integer not null default 1,
  primary key (tenant_id, id)
);
create unique index dynamic_attribute_types_description on dynamic_attribute_types (tenant_id, lower(description));

create table dynamic_attribute_values (
  tenant_id integer not null,
  id integer generated always as identity,
  type_id integer not null,
  value text not null,
  primary key (tenant_id, id),
  unique (tenant_id, type_id, value),
  foreign key (tenant_id, type_id) references dynamic_attribute_types (tenant_id, id) on delete cascade
);

create table items (
  tenant_id integer not null references tenants (id) on delete cascade,
  id integer generated always as identity,
  sku text,
  rfid text,
  uuid text,
  name text,
  title text not null,
  model text,
  short_description text,
  long_description text,
  item_status_id smallint not null default 1,
  category_id integer,
  brand_id integer,
  default_item_id integer,
  in_stock boolean not null default false,
  public_web_link text,
  rating numeric(4, 2),
  like_count integer not null default 0,
  date_added timestamptz not null default now(),
  date_modified timestamptz not null default now(),
  version integer not null default 1,
  search_vector tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(name, '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(sku, '') || ' ' || coalesce(model, '')), 'B') ||
    setweight(to_tsvector('simple', coalesce(short_description, '') || ' ' || coalesce(long_description, '')), 'C')
  ) stored,
  primary key (tenant_id, id),
  foreign key (tenant_id, category_id) references categories (tenant_id, id),
  foreign key (tenant_id, brand_id) references brands (tenant_id, id),
  foreign key (tenant_id, default_item_id) references items (tenant_id, id)
);
create unique index items_sku on items (tenant_id, sku) where sku is not null;
create index items_category on items (tenant_id, category_id);
create index items_brand on items (tenant_id, brand_id);
create index items_default_item on items (tenant_id, default_item_id);
create index items_uuid on items (tenant_id, uuid) where uuid is not null;
create index items_search on items using gin (search_vector);
create index items_title_trgm on items using gin (title gin_trgm_ops);

create table item_prices (
  tenant_id integer not null,
  id integer generated always as identity,
  item_id integer not null,
  price_type_id integer not null,
  normal_price numeric(14, 4) not null,
  discount_price numeric(14, 4),
  primary key (tenant_id, id),
  unique (tenant_id, item_id, price_type_id),
  foreign key (tenant_id, item_id) references items (tenant_id, id) on delete cascade,
  foreign key (tenant_id, price_type_id) references price_types (tenant_id, id)
);
create index item_prices_type on item_prices (tenant_id, price_type_id);

create table item_attributes (
  tenant_id integer not null,
  item_id integer not null,
  type_id integer not null,
  value_id integer not null,
  primary key (tenant_id, item_id, type_id),
  foreign key (tenant_id, item_id) references items (tenant_id, id) on delete cascade,
  foreign key (tenant_id, type_id) references dynamic_attribute_types (tenant_id, id),
  foreign key (tenant_id, value_id) references dynamic_attribute_values (tenant_id, id)
);
create index item_attributes_value on item_attributes (tenant_id, value_id);
create index item_attributes_type on item_attributes (tenant_id, type_id);

create table item_tags (
  tenant_id integer not null,
  item_id integer not null,
  tag_id integer not null,
  primary key (tenant_id, item_id, tag_id),
  foreign key (tenant_id, item_id) references items (tenant_id, id) on delete cascade,
  foreign key (tenant_id, tag_id) references tags (tenant_id, id)
);
create index item_tags_tag on item_tags (tenant_id, tag_id);

-- Item counts per tenant, so an unfiltered list answers TotalCount without counting 100k rows.
create table catalog_item_counts (
  tenant_id integer primary key references tenants (id) on delete cascade,
  items bigint not null default 0
);

create function count_catalog_items() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into catalog_item_counts as c (tenant_id, items)
      select tenant_id, count(*) from new_rows group by tenant_id
      on conflict (tenant_id) do update set items = c.items + excluded.items;
  else
    update catalog_item_counts c set items = c.items - d.n
      from (select tenant_id, count(*) as n from old_rows group by tenant_id) d
      where c.tenant_id = d.tenant_id;
  end if;
  return null;
end $$;

create trigger items_counted_on_insert after insert on items
  referencing new table as new_rows for each statement execute function count_catalog_items();
create trigger items_counted_on_delete after delete on items
  referencing old table as old_rows for each statement execute function count_catalog_items();
