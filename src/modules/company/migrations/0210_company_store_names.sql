-- A store's name is unique within its tenant (409 DuplicateStoreName): the name is how people
-- tell stores apart (the console's map and store choices, a physical device's StoreName,
-- analytics' StoreName), so two stores named "Berlin Mitte" could not be told apart. Names
-- compare as people read them: case-insensitive, ignoring leading, trailing and repeated
-- spaces. Other tenants may use the same names.
--
-- Stores already sharing a name keep the lowest id's name; each other one gets its id added,
-- "Berlin Mitte (store 12)" (cut to fit the 256 characters a name may have), and a new version
-- (ETag) with its store.updated event (the stores' trigger records it).
update stores s
   set name = left(btrim(s.name), 256 - length(' (store ' || s.id || ')')) || ' (store ' || s.id || ')',
       updated_at = greatest(now(), s.updated_at + interval '1 millisecond')
 where exists (
   select 1 from stores o
    where o.tenant_id = s.tenant_id
      and o.id < s.id
      and lower(regexp_replace(btrim(o.name), '\s+', ' ', 'g'))
        = lower(regexp_replace(btrim(s.name), '\s+', ' ', 'g')));

create unique index stores_name on stores (tenant_id, lower(regexp_replace(btrim(name), '\s+', ' ', 'g')));
