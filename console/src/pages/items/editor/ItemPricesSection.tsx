// The item's prices: one row per price type with its normal and optional discount price, typed
// as text (a decimal point or comma) and checked before saving: at most the currency's decimals
// (item-validation.ts). Errors show under their field.
import type { CatalogChoices } from '../../../catalog.ts';
import { Field, Section, Select } from '../../../components.tsx';
import { priceTypeLabel } from '../price-format.ts';
import { withoutRow, withRowChanged, type PriceRow } from './item-form-model.ts';

export function ItemPricesSection(props: {
  prices: PriceRow[];
  onChange: (prices: PriceRow[]) => void;
  priceTypes: CatalogChoices['priceTypes'];
  errorOf: (path: string) => string | undefined;
  clearField: (path: string) => void;
}) {
  const { prices, onChange, priceTypes, errorOf, clearField } = props;
  const options = priceTypes.map((p) => ({ value: String(p.Id), label: priceTypeLabel(p) }));
  const change = (i: number, row: Partial<PriceRow>) => {
    for (const key of Object.keys(row)) clearField(`Prices.${i}.${key}`);
    onChange(withRowChanged(prices, i, row));
  };
  const removeRow = (i: number) => {
    // The rows after it move up: their errors no longer name them.
    for (let k = i; k < prices.length; k++)
      for (const key of ['PriceTypeId', 'NormalPrice', 'DiscountPrice'])
        clearField(`Prices.${k}.${key}`);
    onChange(withoutRow(prices, i));
  };
  return (
    <Section title="Prices">
      {prices.map((price, i) => {
        return (
          <div className="row price-row" key={i}>
            <Select
              label={`Price type ${i + 1}`}
              value={price.PriceTypeId}
              options={options}
              onChange={(v) => change(i, { PriceTypeId: v })}
              error={errorOf(`Prices.${i}.PriceTypeId`)}
            />
            <Field
              label={`Normal price ${i + 1}`}
              inputMode="decimal"
              value={price.NormalPrice}
              required
              onChange={(v) => change(i, { NormalPrice: v })}
              error={errorOf(`Prices.${i}.NormalPrice`)}
            />
            <Field
              label={`Discount price ${i + 1}`}
              inputMode="decimal"
              value={price.DiscountPrice}
              onChange={(v) => change(i, { DiscountPrice: v })}
              error={errorOf(`Prices.${i}.DiscountPrice`)}
            />
            <button type="button" onClick={() => removeRow(i)}>
              Remove price {i + 1}
            </button>
          </div>
        );
      })}
      {options.length === 0 ? (
        <p className="muted">Create a price type first (Price types page).</p>
      ) : (
        <button
          type="button"
          onClick={() =>
            onChange([
              ...prices,
              { PriceTypeId: options[0]!.value, NormalPrice: '', DiscountPrice: '' },
            ])
          }
        >
          Add price
        </button>
      )}
    </Section>
  );
}
