-- JSON text built in SQL, for the documents the database keeps ready to send (an item's, an
-- app's) and the events' data: every module may call these.

-- A value as JSON text; SQL null as JSON null.
create or replace function json_text(value anyelement) returns text
language sql stable parallel safe as $$
  select coalesce(to_json(value)::text, 'null')
$$;

-- The same JSON with every character outside ASCII written as a \u escape (two for those above
-- U+FFFF), as v4 sends it; a document that is ASCII already is returned as it is, at once.
create or replace function json_ascii(document text) returns text
language plpgsql immutable strict parallel safe as $$
declare
  ch text;
  code integer;
begin
  if document !~ '[^\x01-\x7f]' then
    return document;
  end if;
  for ch in select distinct m[1] from regexp_matches(document, '([^\x01-\x7f])', 'g') as m loop
    code := ascii(ch);
    document := replace(document, ch, case
      when code < 65536 then '\u' || lpad(to_hex(code), 4, '0')
      else '\u' || to_hex(55296 + ((code - 65536) >> 10)) || '\u' || to_hex(56320 + ((code - 65536) & 1023))
    end);
  end loop;
  return document;
end $$;
