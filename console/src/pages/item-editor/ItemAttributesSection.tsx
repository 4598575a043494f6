// The item's dynamic attributes: one row per attribute type and value.
import type { CatalogChoices } from '../../catalog.ts';
import { Field, Section, Select } from '../../components.tsx';
import { withoutRow, withRowChanged, type AttributeRow } from './item-form-model.ts';

export function ItemAttributesSection(props: {
  attributes: AttributeRow[];
  onChange: (attributes: AttributeRow[]) => void;
  attributeTypes: CatalogChoices['attributeTypes'];
}) {
  const { attributes, onChange, attributeTypes } = props;
  const options = attributeTypes.map((t) => ({ value: String(t.Id), label: t.Description }));
  const change = (i: number, row: Partial<AttributeRow>) =>
    onChange(withRowChanged(attributes, i, row));
  return (
    <Section title="Dynamic attributes">
      {attributes.map((attribute, i) => (
        <div className="row" key={i}>
          <Select
            label={`Attribute type ${i + 1}`}
            value={attribute.TypeId}
            options={options}
            onChange={(v) => change(i, { TypeId: v })}
          />
          <Field
            label={`Attribute value ${i + 1}`}
            value={attribute.Value}
            required
            onChange={(v) => change(i, { Value: v })}
          />
          <button type="button" onClick={() => onChange(withoutRow(attributes, i))}>
            Remove attribute {i + 1}
          </button>
        </div>
      ))}
      {options.length === 0 ? (
        <p className="muted">Create an attribute type first (Attribute types page).</p>
      ) : (
        <button
          type="button"
          onClick={() => onChange([...attributes, { TypeId: options[0]!.value, Value: '' }])}
        >
          Add attribute
        </button>
      )}
    </Section>
  );
}
