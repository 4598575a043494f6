// The item's prices: one row per price type with its normal and optional discount price.
import type { CatalogChoices } from '../../catalog.ts';
import { Field, Section, Select } from '../../components.tsx';
import { withoutRow, withRowChanged, type PriceRow } from './item-form-model.ts';

export function ItemPricesSection(props: {
  prices: PriceRow[];
  onChange: (prices: PriceRow[]) => void;
  priceTypes: CatalogChoices['priceTypes'];
}) {
  const { prices, onChange, priceTypes } = props;
  const options = priceTypes.map((p) => ({
    value: String(p.Id),
    label: `${p.Description} (${p.PriceTypeSymbol})`,
  }));
  const change = (i: number, row: Partial<PriceRow>) => onChange(withRowChanged(prices, i, row));
  return (
    <Section title="Prices">
      {prices.map((price, i) => (
        <div className="row" key={i}>
          <Select
            label={`Price type ${i + 1}`}
            value={price.PriceTypeId}
            options={options}
            onChange={(v) => change(i, { PriceTypeId: v })}
          />
          <Field
            label={`Normal price ${i + 1}`}
            type="number"
            step="0.01"
            value={price.NormalPrice}
            required
            onChange={(v) => change(i, { NormalPrice: v })}
          />
          <Field
            label={`Discount price ${i + 1}`}
            type="number"
            step="0.01"
            value={price.DiscountPrice}
            onChange={(v) => change(i, { DiscountPrice: v })}
          />
          <button type="button" onClick={() => onChange(withoutRow(prices, i))}>
            Remove price {i + 1}
          </button>
        </div>
      ))}
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
