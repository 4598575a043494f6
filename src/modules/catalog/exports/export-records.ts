// An item as an import record (import-schemas.ts): references by name (its category by its path
// from the root), so that the file imports into another tenant; its assets by content; a variant
// group as a GroupKey (the default item's id in this tenant) with the default item first. The
// descriptions of its tags are in the file's Tag records, not repeated in every item.
import { neutraliseFormula } from '../csv-formulas.ts';
import type { ReferenceRecord } from '../imports/import-reference-schemas.ts';
import type { ImportAsset, ImportRecord } from '../imports/import-schemas.ts';

interface ItemDocument {
  SKU: string | null;
  RFID: string | null;
  UUID: string | null;
  Name: string | null;
  Title: string;
  Model: string | null;
  ShortDescription: string | null;
  LongDescription: string | null;
  ItemStatusId: 1 | 2;
  InStock: boolean;
  PublicWebLink: string | null;
  Rating: number | null;
  DefaultItemId: number | null;
  Prices: { PriceTypeSymbol: string; NormalPrice: number; DiscountPrice: number | null }[];
  DynamicAttributes: { TypeName: string; Value: string }[];
  Tags: { Name: string; Description: string | null }[];
}

/** Columns of an exported CSV, in order (the import reads any order). */
export const EXPORT_CSV_COLUMNS = [
  'RecordType',
  'SKU',
  'RFID',
  'UUID',
  'Name',
  'Title',
  'Model',
  'ShortDescription',
  'LongDescription',
  'ItemStatusId',
  'InStock',
  'PublicWebLink',
  'Rating',
  'CategoryPath',
  'Brand',
  'GroupKey',
  'Prices',
  'DynamicAttributes',
  'Tags',
  'Assets',
  'CategoryMetadata',
  'Tag',
  'Description',
  'PriceTypeSymbol',
  'TypeName',
] as const;

export function exportRecord(
  document: string,
  categoryPath: string[] | null,
  brand: string | null,
  assets: ImportAsset[],
): ImportRecord {
  const d = JSON.parse(document) as ItemDocument;
  const record: Record<string, unknown> = {
    SKU: d.SKU,
    RFID: d.RFID,
    UUID: d.UUID,
    Name: d.Name,
    Title: d.Title,
    Model: d.Model,
    ShortDescription: d.ShortDescription,
    LongDescription: d.LongDescription,
    ItemStatusId: d.ItemStatusId,
    InStock: d.InStock,
    PublicWebLink: d.PublicWebLink,
    Rating: d.Rating,
    CategoryPath: categoryPath,
    Brand: brand,
    GroupKey: d.DefaultItemId === null ? null : String(d.DefaultItemId),
    Prices: d.Prices.map((p) => ({
      PriceTypeSymbol: p.PriceTypeSymbol,
      NormalPrice: p.NormalPrice,
      ...(p.DiscountPrice === null ? {} : { DiscountPrice: p.DiscountPrice }),
    })),
    DynamicAttributes: d.DynamicAttributes.map((a) => ({ TypeName: a.TypeName, Value: a.Value })),
    Tags: d.Tags.map((t) => ({ Name: t.Name })),
    Assets: assets.length > 0 ? assets : null,
  };
  for (const key of Object.keys(record)) if (record[key] === null) delete record[key];
  return record as ImportRecord;
}

/**
 * A record's CSV cells: arrays as JSON, an absent value or an empty array as null (written as an
 * empty cell), an empty text as '' (written quoted, ""); text that a spreadsheet would run as a
 * formula is neutralised.
 */
export function csvRow(record: ImportRecord | ReferenceRecord): (string | null)[] {
  const r = record as Record<string, unknown>;
  return EXPORT_CSV_COLUMNS.map((column) => {
    const value = r[column];
    if (value === undefined || value === null) return null;
    if (Array.isArray(value)) return value.length === 0 ? null : JSON.stringify(value);
    return typeof value === 'string' ? neutraliseFormula(value) : JSON.stringify(value);
  });
}
