// The item's variant group. A default item links to its variants. Any other item chooses the
// default item it is a variant of by searching items (ItemPicker), links to it and to the other
// variants of its group, or becomes stand-alone again; the choice is saved with the item
// (DefaultItemId in its PUT, which groups or moves it).
import { useRef, useState, type ReactNode } from 'react';
import { Section } from '../../../components.tsx';
import { navigate } from '../../../router.ts';
import type { Item } from '../../../types.ts';
import { ItemPicker } from './ItemPicker.tsx';
import { focusSoon } from './use-item-form.ts';

function ItemLink({ item, children }: { item: Pick<Item, 'Id'>; children: ReactNode }) {
  return (
    <a
      href={`/console/items/${item.Id}`}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        navigate(`items/${item.Id}`);
      }}
    >
      {children}
    </a>
  );
}

function ItemLinks({ items }: { items: Item[] }) {
  return (
    <ul className="variant-links">
      {items.map((v) => (
        <li key={v.Id}>
          <ItemLink item={v}>{v.Title}</ItemLink>
          {v.SKU && <span className="muted"> (SKU {v.SKU})</span>}
        </li>
      ))}
    </ul>
  );
}

export function ItemVariantsSection(props: {
  /** The item's id (undefined for a new one). */
  id: number | undefined;
  /** The item as saved. */
  item: Item | undefined;
  /** The form's DefaultItemId ('' for stand-alone). */
  defaultItemId: string;
  onChange: (defaultItemId: string) => void;
  /** The saved variant group's items (its default item included). */
  group: Item[];
  error?: string;
}) {
  const { id, item, defaultItemId, onChange, group, error } = props;
  // Items chosen while editing, so that a choice not saved yet still shows its title.
  const [picked, setPicked] = useState<Item[]>([]);
  const section = useRef<HTMLDivElement>(null);
  const savedDefault = item?.DefaultItemId ?? null;

  if (id !== undefined && savedDefault === id) {
    const variants = group.filter((v) => v.Id !== id);
    return (
      <Section title="Variants">
        <p>
          This item is the default item of a variant group with {variants.length}{' '}
          {variants.length === 1 ? 'variant' : 'variants'}:
        </p>
        <ItemLinks items={variants} />
        <p className="muted">
          To make it a variant of another item, first make its variants stand-alone or move them to
          another group (from their own pages).
        </p>
      </Section>
    );
  }

  const chosenId = defaultItemId === '' ? undefined : Number(defaultItemId);
  const chosen =
    chosenId === undefined
      ? undefined
      : ([...picked, ...group].find((i) => i.Id === chosenId) ?? { Id: chosenId, Title: '' });
  const siblings =
    chosenId !== undefined && chosenId === savedDefault
      ? group.filter((v) => v.Id !== savedDefault && v.Id !== id)
      : [];

  return (
    <Section title="Variants">
      <div ref={section}>
        {chosen ? (
          <>
            <p className="chosen-default">
              <span>
                Variant of <ItemLink item={chosen}>{chosen.Title || `item ${chosen.Id}`}</ItemLink>
                {chosenId !== savedDefault && <span className="muted"> (not saved yet)</span>}
              </span>
              <button
                type="button"
                onClick={() => {
                  onChange('');
                  // The button goes with the choice: the search field takes the focus.
                  focusSoon(() => section.current?.querySelector('[role="combobox"]'));
                }}
              >
                Make stand-alone
              </button>
            </p>
            {siblings.length > 0 && (
              <>
                <p>Other variants of this group:</p>
                <ItemLinks items={siblings} />
              </>
            )}
          </>
        ) : (
          <p className="muted">This item is stand-alone (in no variant group).</p>
        )}
        <ItemPicker
          label="Default item"
          hint={
            chosen
              ? 'Search by title or SKU to move this item to another default item.'
              : 'Search by title or SKU; this item becomes a variant of the item you choose.'
          }
          unavailable={(candidate) => {
            if (candidate.Id === id) return 'this item';
            if (candidate.Id === chosenId) return 'chosen already';
            if (candidate.DefaultItemId !== null && candidate.DefaultItemId !== candidate.Id)
              return `a variant of item ${candidate.DefaultItemId}; choose its default item`;
            return undefined;
          }}
          onPick={(candidate) => {
            setPicked((list) => [candidate, ...list]);
            onChange(String(candidate.Id));
          }}
          error={error}
        />
      </div>
    </Section>
  );
}
