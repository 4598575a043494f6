// The item's variant group: the default item it belongs to, and links to the other variants.
import { Field, Section } from '../../components.tsx';
import { navigate } from '../../router.ts';
import type { Item } from '../../types.ts';

export function ItemVariantsSection(props: {
  defaultItemId: string;
  onChange: (defaultItemId: string) => void;
  variants: Item[];
}) {
  const { defaultItemId, onChange, variants } = props;
  return (
    <Section title="Variants">
      <Field
        label="Default item of the variant group (Id; empty: stand-alone)"
        type="number"
        value={defaultItemId}
        onChange={onChange}
      />
      {variants.length > 0 && (
        <ul>
          {variants.map((v) => (
            <li key={v.Id}>
              <a
                href={`/console/items/${v.Id}`}
                onClick={(event) => {
                  event.preventDefault();
                  navigate(`items/${v.Id}`);
                }}
              >
                Variant {v.Id}: {v.Title}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
