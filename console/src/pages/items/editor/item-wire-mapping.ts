// Between the API's item and the editor's form: the form starts from an item (or from nothing
// for a new one), and saving sends the whole item, so the API replaces prices, attributes and
// tags with what the form holds.
import type { paths } from '@omnichannel/management-client';
import type { Item, PriceType } from '../../../types.ts';
import { decimalsOf } from '../price-format.ts';
import type { ItemForm } from './item-form-model.ts';
import type { StagedImage } from './item-images.ts';

const text = (value: string | null | undefined) => value ?? '';
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const idOrNull = (value: string) => (value === '' ? null : Number(value));
/** An amount as typed (a decimal comma allowed; item-validation.ts checked it). */
const amount = (value: string) => Number(value.trim().replace(',', '.'));

/**
 * An amount as the field shows it: with the currency's decimals (129.9 → "129.90"), or as stored
 * when it has more (an import may have stored 4; the form then asks for fewer before saving).
 */
function amountText(value: number, decimals: number): string {
  const fixed = value.toFixed(decimals);
  return Number(fixed) === value ? fixed : String(value);
}

/** The form of an item (`priceTypes` give each price its currency's decimals), its images. */
export function formFromItem(
  item?: Item,
  priceTypes: PriceType[] = [],
  images: StagedImage[] = [],
): ItemForm {
  const decimals = (typeId: number) =>
    decimalsOf(priceTypes.find((t) => t.Id === typeId)?.PriceTypeSymbol ?? '');
  return {
    Title: text(item?.Title),
    Name: text(item?.Name),
    SKU: text(item?.SKU),
    Model: text(item?.Model),
    ShortDescription: text(item?.ShortDescription),
    LongDescription: text(item?.LongDescription),
    ItemStatusId: String(item?.ItemStatusId ?? 1),
    CategoryId: item?.CategoryId ? String(item.CategoryId) : '',
    BrandId: item?.BrandId ? String(item.BrandId) : '',
    DefaultItemId: item?.DefaultItemId ? String(item.DefaultItemId) : '',
    prices: (item?.Prices ?? []).map((p) => ({
      PriceTypeId: String(p.PriceTypeId),
      NormalPrice: amountText(p.NormalPrice, decimals(p.PriceTypeId)),
      DiscountPrice:
        p.DiscountPrice === null ? '' : amountText(p.DiscountPrice, decimals(p.PriceTypeId)),
    })),
    attributes: (item?.DynamicAttributes ?? []).map((a) => ({
      TypeId: String(a.TypeId),
      Value: a.Value,
    })),
    tags: new Set((item?.Tags ?? []).map((t) => t.Id)),
    images,
  };
}

type ItemBody =
  paths['/private/catalog/item']['post']['requestBody']['content']['application/json'];

/** The body of the POST (new item) or PUT (existing one) that saves the form. */
export function itemBodyFromForm(form: ItemForm): ItemBody {
  return {
    Title: form.Title.trim(),
    Name: orNull(form.Name),
    SKU: orNull(form.SKU),
    Model: orNull(form.Model),
    ShortDescription: orNull(form.ShortDescription),
    LongDescription: orNull(form.LongDescription),
    ItemStatusId: form.ItemStatusId === '2' ? 2 : 1,
    CategoryId: idOrNull(form.CategoryId),
    BrandId: idOrNull(form.BrandId),
    DefaultItemId: idOrNull(form.DefaultItemId),
    Prices: form.prices.map((p) => ({
      PriceTypeId: Number(p.PriceTypeId),
      NormalPrice: amount(p.NormalPrice),
      DiscountPrice: p.DiscountPrice.trim() === '' ? null : amount(p.DiscountPrice),
    })),
    DynamicAttributes: form.attributes.map((a) => ({ TypeId: Number(a.TypeId), Value: a.Value })),
    Tags: [...form.tags].map((Id) => ({ Id })),
  };
}
