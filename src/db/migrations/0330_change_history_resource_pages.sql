-- One resource's history page by page, newest first (GET <resource>/{id}/history): the keyset
-- pages run on (changed_at, id), and the entries of one resource by that order are an index range
-- here. Without it a page sorted every entry of the resource (an item with 10,000 entries read
-- them all for each page of 20).
create index change_history_resource_pages
  on change_history (tenant_id, resource, resource_id, changed_at, id);
