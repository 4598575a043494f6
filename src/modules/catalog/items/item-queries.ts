// Items are read in their wire shape straight from the database: each item row keeps its JSON
// document (built by the database itself: src/modules/catalog/sql/010-item-documents.sql), so a
// fetch or a page is a key lookup and the server passes the text through without re-serialising
// it.

/** One item: its row version (for the ETag) and its JSON text. */
export const ITEM_BY_ID =
  'select i.id, i.version, i.document as json from items i where i.tenant_id = $1 and i.id = $2';
