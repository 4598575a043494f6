-- The nearest-store search reads each store's point on the sphere from a stored column instead
-- of the expression index on ll_to_earth(latitude, longitude): ll_to_earth is a SQL function
-- over the `earth` domain, and evaluating it (with the domain's checks) cost more than the index
-- search itself wherever a row's point was needed again (the tie search's recheck and filter).
-- The column holds the same point ll_to_earth gives (x, y, z on the sphere of earth() =
-- 6378168 m, geo.ts), computed with built-in functions only, so it does not depend on the
-- search_path that earthdistance's SQL functions need.
alter table stores add column point cube generated always as (
  cube(array[
    6378168 * cos(radians(latitude)) * cos(radians(longitude)),
    6378168 * cos(radians(latitude)) * sin(radians(longitude)),
    6378168 * sin(radians(latitude))])) stored;
drop index stores_location;
create index stores_point on stores using gist (tenant_id, point);
