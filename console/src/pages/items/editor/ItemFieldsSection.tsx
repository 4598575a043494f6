// The item's own fields: titles, codes, status, category, brand and descriptions.
import type { CatalogChoices } from '../../../catalog.ts';
import { Field, Section, Select } from '../../../components.tsx';
import type { ItemForm, SetField } from './item-form-model.ts';

const STATUS_OPTIONS = [
  { value: '1', label: 'Active' },
  { value: '2', label: 'Passive' },
];

export function ItemFieldsSection(props: {
  form: ItemForm;
  set: SetField;
  choices: CatalogChoices;
  /** The field's error in plain words, by the API's field path. */
  errorOf: (path: string) => string | undefined;
}) {
  const { form, set, choices, errorOf } = props;
  return (
    <Section title="Fields">
      <div className="grid">
        <Field
          label="Title"
          value={form.Title}
          onChange={set('Title')}
          error={errorOf('Title')}
          required
        />
        <Field label="Name" value={form.Name} onChange={set('Name')} error={errorOf('Name')} />
        <Field label="SKU" value={form.SKU} onChange={set('SKU')} error={errorOf('SKU')} />
        <Field label="Model" value={form.Model} onChange={set('Model')} error={errorOf('Model')} />
        <Select
          label="Status"
          value={form.ItemStatusId}
          onChange={set('ItemStatusId')}
          error={errorOf('ItemStatusId')}
          options={STATUS_OPTIONS}
        />
        {/* Across the grid: a category is chosen by its whole path. */}
        <div className="category-field">
          <Select
            label="Category"
            value={form.CategoryId}
            onChange={set('CategoryId')}
            error={errorOf('CategoryId')}
            empty="(none)"
            options={[...choices.categories]
              .sort((a, b) => a.path.localeCompare(b.path))
              .map((c) => ({ value: String(c.category.Id), label: c.path }))}
          />
        </div>
        <Select
          label="Brand"
          value={form.BrandId}
          onChange={set('BrandId')}
          error={errorOf('BrandId')}
          empty="(none)"
          options={choices.brands.map((b) => ({ value: String(b.Id), label: b.Name }))}
        />
      </div>
      <Field
        label="Short description"
        value={form.ShortDescription}
        onChange={set('ShortDescription')}
        error={errorOf('ShortDescription')}
        multiline
      />
      <Field
        label="Long description"
        value={form.LongDescription}
        onChange={set('LongDescription')}
        error={errorOf('LongDescription')}
        multiline
      />
    </Section>
  );
}
