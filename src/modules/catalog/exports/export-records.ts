// An item as an import record (import-schemas.ts): references by name, so that the file imports
// into another tenant; a variant group as a GroupKey (the default item's id in this tenant) with
// the default item first.
import { neutraliseFormula } from '../csv-formulas.ts';
import type { ImportRecord } from '../imports/import-schemas.ts';

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
  'Category',
  'Brand',
  'GroupKey',
  'Prices',
  'DynamicAttributes',
  'Tags',
] as const;

export function exportRecord(
  document: string,
  category: string | null,
  brand: string | null,
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
    Category: category,
    Brand: brand,
    GroupKey: d.DefaultItemId === null ? null : String(d.DefaultItemId),
    Prices: d.Prices.map((p) => ({
      PriceTypeSymbol: p.PriceTypeSymbol,
      NormalPrice: p.NormalPrice,
      ...(p.DiscountPrice === null ? {} : { DiscountPrice: p.DiscountPrice }),
    })),
    DynamicAttributes: d.DynamicAttributes.map((a) => ({ TypeName: a.TypeName, Value: a.Value })),
    Tags: d.Tags.map((t) => ({
      Name: t.Name,
      ...(t.Description === null ? {} : { Description: t.Description }),
    })),
  };
  for (const key of Object.keys(record)) if (record[key] === null) delete record[key];
  return record as ImportRecord;
}

/** The record as a CSV row: arrays as JSON cells, absent fields as empty cells. */
/** A record's CSV cells; text that a spreadsheet would run as a formula is neutralised. */
export function csvRow(record: ImportRecord): string[] {
  const r = record as Record<string, unknown>;
  return EXPORT_CSV_COLUMNS.map((column) => {
    const value = r[column];
    if (value === undefined || value === null) return '';
    if (Array.isArray(value)) return value.length === 0 ? '' : JSON.stringify(value);
    return typeof value === 'string' ? neutraliseFormula(value) : JSON.stringify(value);
  });
}
