// The item's own fields are listed once in TypeScript (src/modules/catalog/items/item-fields.ts),
// and the database's document function spells them in SQL, where the triggers run. These hold the
// SQL and the OpenAPI `Item` schema to that one list: a field added, renamed or mapped to another
// column in one place and not the other fails here, before any item is written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ITEM_FIELDS } from '../../../../src/modules/catalog/items/item-fields.ts';
import { Item } from '../../../../src/modules/catalog/items/item-schemas.ts';

const SQL = readFileSync(
  path.resolve(import.meta.dirname, '../../../../src/modules/catalog/sql/010-item-documents.sql'),
  'utf8',
);

/** The fields item_document_text writes, each with the parameter that gives its value. */
function documentFields(): Map<string, string> {
  const body = SQL.slice(SQL.indexOf('function item_document_text('));
  const text = body.slice(0, body.indexOf('$$;', body.indexOf('$$') + 2));
  return new Map(
    [
      ...text.matchAll(
        /"(\w+)":(?:' \|\| json_text\(p_(\w+)|\[' \|\| p_(\w+)|"' \|\| to_char\(p_(\w+))/g,
      ),
    ].map(([, field, ...parameter]) => [field!, parameter.find(Boolean)!]),
  );
}

/** The fields of an item that are not its own columns' (children, counters, dates, grouping). */
const OTHER_FIELDS = [
  'Id',
  'DefaultItemId',
  'LikeCount',
  'Prices',
  'DynamicAttributes',
  'Tags',
  'DateAdded',
  'DateModified',
];

describe('the item fields list', () => {
  it('is what the SQL document writes: each field from its own column', () => {
    const written = documentFields();
    for (const field of ITEM_FIELDS)
      expect(written.get(field.wire), `item_document_text writes ${field.wire}`).toBe(field.column);
    expect([...written.keys()].sort()).toEqual(
      [...ITEM_FIELDS.map((f) => f.wire), ...OTHER_FIELDS].sort(),
    );
  });

  it('names every field of the OpenAPI Item schema that is not a child, counter or date', () => {
    expect(Object.keys(Item.properties).sort()).toEqual(
      [...ITEM_FIELDS.map((f) => f.wire), ...OTHER_FIELDS].sort(),
    );
  });

  it('gives each field a column once', () => {
    const columns = ITEM_FIELDS.map((f) => f.column);
    expect(new Set(columns).size).toBe(columns.length);
    expect(new Set(ITEM_FIELDS.map((f) => f.wire)).size).toBe(columns.length);
  });
});
