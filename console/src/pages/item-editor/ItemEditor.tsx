// One item: its fields, prices, dynamic attributes, tags, variant group and images. Saving sends
// the whole item in one PUT (or POST for a new one): the API replaces prices, attributes and tags
// when they are in the body.
import type { CatalogChoices } from '../../catalog.ts';
import { ErrorMessage, PageTitle, Section } from '../../components.tsx';
import { navigate } from '../../router.ts';
import { useAccess } from '../../session.tsx';
import type { Item } from '../../types.ts';
import { ImageDrop } from './ImageDrop.tsx';
import { ItemAttributesSection } from './ItemAttributesSection.tsx';
import { ItemFieldsSection } from './ItemFieldsSection.tsx';
import { ItemPricesSection } from './ItemPricesSection.tsx';
import { ItemTagsSection } from './ItemTagsSection.tsx';
import { ItemVariantsSection } from './ItemVariantsSection.tsx';
import { useItemForm } from './use-item-form.ts';

export function ItemEditor(props: {
  id: number | undefined;
  choices: CatalogChoices;
  item: Item | undefined;
  variants: Item[];
}) {
  const { id, choices, item, variants } = props;
  const access = useAccess();
  const editable = access.can('catalog', 'write');
  // Images are assets first (the storage area), then related to the item.
  const canUpload = access.can('storage', 'write');
  const { form, set, saved, action, save, remove } = useItemForm(id, item);

  return (
    <>
      <PageTitle>{id === undefined ? 'New item' : `Item ${id}: ${item?.Title ?? ''}`}</PageTitle>
      <p>
        <a
          href="/console/items"
          onClick={(event) => {
            event.preventDefault();
            navigate('items');
          }}
        >
          Back to items
        </a>
      </p>
      {!editable && <p className="notice">Your role can read the catalog but not change it.</p>}
      <form onSubmit={save} aria-label="Item">
        <fieldset disabled={!editable || action.busy}>
          <ItemFieldsSection form={form} set={set} choices={choices} />
          <ItemPricesSection
            prices={form.prices}
            onChange={set('prices')}
            priceTypes={choices.priceTypes}
          />
          <ItemAttributesSection
            attributes={form.attributes}
            onChange={set('attributes')}
            attributeTypes={choices.attributeTypes}
          />
          <ItemTagsSection checked={form.tags} onChange={set('tags')} tags={choices.tags} />
          <ItemVariantsSection
            defaultItemId={form.DefaultItemId}
            onChange={set('DefaultItemId')}
            variants={variants}
          />
          <ErrorMessage error={action.error} />
          {saved && (
            <p role="status" className="ok">
              Saved.
            </p>
          )}
          <div className="actions">
            <button type="submit">{id === undefined ? 'Create item' : 'Save item'}</button>
            {id !== undefined && (
              <button type="button" className="danger" onClick={remove}>
                Delete item
              </button>
            )}
          </div>
        </fieldset>
      </form>
      {id !== undefined && (
        <Section title="Images">
          <ImageDrop itemId={id} editable={editable && canUpload} />
        </Section>
      )}
      {id === undefined && <p className="muted">Images can be added once the item is created.</p>}
    </>
  );
}
