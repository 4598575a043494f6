// The item editor's form: every field as the text its input holds (an empty string is "none"),
// the price and attribute rows in the order shown, the checked tags, and the images it will
// have once saved.
import type { StagedImage } from './item-images.ts';

export interface PriceRow {
  PriceTypeId: string;
  NormalPrice: string;
  DiscountPrice: string;
}

export interface AttributeRow {
  TypeId: string;
  Value: string;
}

export interface ItemForm {
  Title: string;
  Name: string;
  SKU: string;
  Model: string;
  ShortDescription: string;
  LongDescription: string;
  ItemStatusId: string;
  CategoryId: string;
  BrandId: string;
  DefaultItemId: string;
  prices: PriceRow[];
  attributes: AttributeRow[];
  tags: Set<number>;
  images: StagedImage[];
}

/** Whether two forms hold the same values (the editor's unsaved-changes check). */
export function sameForm(a: ItemForm, b: ItemForm): boolean {
  const plain = (form: ItemForm) =>
    JSON.stringify({ ...form, tags: [...form.tags].sort((x, y) => x - y) });
  return plain(a) === plain(b);
}

/**
 * Sets one field of the form (the editor clears its "Saved." notice and the field's error on
 * every change).
 */
export type SetField = <K extends keyof ItemForm>(key: K) => (value: ItemForm[K]) => void;

/** The rows with row `index` changed by `change`. */
export function withRowChanged<Row>(rows: Row[], index: number, change: Partial<Row>): Row[] {
  return rows.map((row, i) => (i === index ? { ...row, ...change } : row));
}

/** The rows without row `index`. */
export function withoutRow<Row>(rows: Row[], index: number): Row[] {
  return rows.filter((_, i) => i !== index);
}

/** The tag set with `tagId` checked or not. */
export function withTag(tags: Set<number>, tagId: number, checked: boolean): Set<number> {
  const next = new Set(tags);
  if (checked) next.add(tagId);
  else next.delete(tagId);
  return next;
}
