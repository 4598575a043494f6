// What the editor checks before it saves, in the same plain words as the API's field errors
// (error-messages.ts): prices as the currency writes them (at most its decimals, 2 for most,
// 0 for JPY), not negative, a discount not above the price, and a title. Errors are keyed by the
// API's field paths (`Prices.0.NormalPrice`), so they sit next to the same fields.
import type { FieldLabels } from '../../../error-messages.ts';
import type { PriceType } from '../../../types.ts';
import { decimalsOf, parseAmount } from '../price-format.ts';
import type { ItemForm } from './item-form-model.ts';

/** The editor's fields by the API's paths, as the messages name them. */
export const ITEM_LABELS: FieldLabels = {
  Title: 'Title',
  Name: 'Name',
  SKU: 'SKU',
  Model: 'Model',
  ItemStatusId: 'Status',
  CategoryId: 'Category',
  BrandId: 'Brand',
  ShortDescription: 'Short description',
  LongDescription: 'Long description',
  DefaultItemId: 'Default item',
  'Prices.*.PriceTypeId': 'Price type',
  'Prices.*.NormalPrice': 'Price',
  'Prices.*.DiscountPrice': 'Discount price',
  'DynamicAttributes.*.TypeId': 'Attribute type',
  'DynamicAttributes.*.Value': 'Attribute value',
};

/** Field path → what is wrong, for every field the editor can tell is wrong before saving. */
export function validateItemForm(form: ItemForm, priceTypes: PriceType[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.Title.trim() === '') errors.Title = 'Title is required.';
  form.prices.forEach((price, i) => {
    const type = priceTypes.find((t) => String(t.Id) === price.PriceTypeId);
    const decimals = decimalsOf(type?.PriceTypeSymbol ?? '');
    const normal = parseAmount(price.NormalPrice, 'Price', decimals);
    if ('error' in normal) errors[`Prices.${i}.NormalPrice`] = normal.error;
    if (price.DiscountPrice.trim() === '') return;
    const discount = parseAmount(price.DiscountPrice, 'Discount price', decimals);
    if ('error' in discount) errors[`Prices.${i}.DiscountPrice`] = discount.error;
    else if ('value' in normal && discount.value > normal.value)
      errors[`Prices.${i}.DiscountPrice`] = 'Discount price cannot be above the price.';
  });
  form.attributes.forEach((attribute, i) => {
    if (attribute.Value.trim() === '')
      errors[`DynamicAttributes.${i}.Value`] = 'Attribute value is required.';
  });
  return errors;
}
