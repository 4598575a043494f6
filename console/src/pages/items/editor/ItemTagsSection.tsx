// The item's tags: a checkbox per tag of the catalog.
import type { CatalogChoices } from '../../../catalog.ts';
import { Section } from '../../../components.tsx';
import { withTag } from './item-form-model.ts';

export function ItemTagsSection(props: {
  checked: Set<number>;
  onChange: (tags: Set<number>) => void;
  tags: CatalogChoices['tags'];
}) {
  const { checked, onChange, tags } = props;
  return (
    <Section title="Tags">
      {tags.length === 0 && <p className="muted">No tags yet (Tags page).</p>}
      <div className="checks">
        {tags.map((tag) => (
          <label key={tag.Id}>
            <input
              type="checkbox"
              checked={checked.has(tag.Id)}
              onChange={(e) => onChange(withTag(checked, tag.Id, e.target.checked))}
            />
            {tag.Name}
          </label>
        ))}
      </div>
    </Section>
  );
}
