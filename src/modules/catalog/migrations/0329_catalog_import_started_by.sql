-- Who started an import (the change context's actor, JSON): the import's writes name the job as
-- their actor and it as the one the job works for (src/modules/catalog/imports/import-run.ts).
alter table catalog_imports add column started_by text;
