-- Analytics records as text instead of json (docs/design.md, "Analytics ingestion"): json checks
-- every ingested record's syntax again in the database (json_recv, about 7 % of a 1000-record
-- COPY's backend CPU), after the server has already built that text with JSON.stringify from
-- a validated record. The API reads whole records (parsed by the server) and the trending job
-- casts the records it reads to jsonb once per row. Existing records convert as they are (the
-- text of a json value is its input text).
alter table analytics_logs alter column record type text using record::text;
