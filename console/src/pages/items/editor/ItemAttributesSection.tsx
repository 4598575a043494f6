// The item's dynamic attributes: one row per attribute type and value.
import type { CatalogChoices } from '../../../catalog.ts';
import { Field, Section, Select } from '../../../components.tsx';
import { withoutRow, withRowChanged, type AttributeRow } from './item-form-model.ts';

export function ItemAttributesSection(props: {
  attributes: AttributeRow[];
  onChange: (attributes: AttributeRow[]) => void;
  attributeTypes: CatalogChoices['attributeTypes'];
  errorOf: (path: string) => string | undefined;
  clearField: (path: string) => void;
}) {
  const { attributes, onChange, attributeTypes, errorOf, clearField } = props;
  const options = attributeTypes.map((t) => ({ value: String(t.Id), label: t.Description }));
  const change = (i: number, row: Partial<AttributeRow>) => {
    for (const key of Object.keys(row)) clearField(`DynamicAttributes.${i}.${key}`);
    onChange(withRowChanged(attributes, i, row));
  };
  const removeRow = (i: number) => {
    for (let k = i; k < attributes.length; k++)
      for (const key of ['TypeId', 'Value']) clearField(`DynamicAttributes.${k}.${key}`);
    onChange(withoutRow(attributes, i));
  };
  return (
    <Section title="Dynamic attributes">
      {attributes.map((attribute, i) => (
        <div className="row" key={i}>
          <Select
            label={`Attribute type ${i + 1}`}
            value={attribute.TypeId}
            options={options}
            onChange={(v) => change(i, { TypeId: v })}
            error={errorOf(`DynamicAttributes.${i}.TypeId`)}
          />
          <Field
            label={`Attribute value ${i + 1}`}
            value={attribute.Value}
            required
            onChange={(v) => change(i, { Value: v })}
            error={errorOf(`DynamicAttributes.${i}.Value`)}
          />
          <button type="button" onClick={() => removeRow(i)}>
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
