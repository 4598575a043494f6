// One item: its fields, prices, dynamic attributes, tags, variant group and images. Saving sends
// the whole item in one PUT (or POST for a new one): the API replaces prices, attributes and tags
// when they are in the body.
import { useState } from 'react';
import type { CatalogChoices } from '../../../catalog.ts';
import { ErrorMessage, PageTitle } from '../../../components.tsx';
import { navigate } from '../../../router.ts';
import { useAccess } from '../../../session.tsx';
import type { Item } from '../../../types.ts';
import { ResourceTabs } from '../../history/ResourceTabs.tsx';
import { lastItemsListPath } from '../items-url.ts';
import '../items.css';
import { ImageDrop } from './ImageDrop.tsx';
import { ItemAttributesSection } from './ItemAttributesSection.tsx';
import { ItemFieldsSection } from './ItemFieldsSection.tsx';
import { ItemPricesSection } from './ItemPricesSection.tsx';
import { ItemTagsSection } from './ItemTagsSection.tsx';
import { ItemVariantsSection } from './ItemVariantsSection.tsx';
import { useItemForm } from './use-item-form.ts';
import { variantGroup } from './use-item-loader.ts';
import type { StagedImage } from './item-images.ts';

export function ItemEditor(props: {
  id: number | undefined;
  choices: CatalogChoices;
  item: Item | undefined;
  images: StagedImage[];
  group: Item[];
}) {
  const { id, choices } = props;
  const access = useAccess();
  const editable = access.can('catalog', 'write');
  // Images are assets first (the storage area), then related to the item.
  const canUpload = access.can('storage', 'write');
  // The item as saved, and its variant group as saved (reloaded when a save moves the item).
  const [item, setItem] = useState(props.item);
  const [group, setGroup] = useState(props.group);
  const editor = useItemForm({
    id,
    item,
    images: props.images,
    priceTypes: choices.priceTypes,
    onSaved: (updated) => {
      setItem(updated);
      if (updated.DefaultItemId !== item?.DefaultItemId)
        void variantGroup(updated.DefaultItemId).then(setGroup, () => setGroup([]));
    },
  });
  const { form, set, saved, action, save, remove, fieldError, clearField } = editor;
  const listPath = lastItemsListPath();

  return (
    <div className="item-editor">
      <PageTitle>{id === undefined ? 'New item' : `Item ${id}: ${item?.Title ?? ''}`}</PageTitle>
      <p>
        <a
          href={`/console/${listPath}`}
          onClick={(event) => {
            if (event.ctrlKey || event.metaKey || event.shiftKey) return;
            event.preventDefault();
            navigate(listPath);
          }}
        >
          Back to items
        </a>
      </p>
      {id !== undefined && (
        <ResourceTabs base={`items/${id}`} view="details" label={`Item ${id}`} />
      )}
      {!editable && <p className="notice">Your role can read the catalog but not change it.</p>}
      <form onSubmit={save} aria-label="Item" noValidate ref={editor.formRef}>
        <fieldset disabled={!editable || action.busy}>
          <ItemFieldsSection form={form} set={set} choices={choices} errorOf={fieldError} />
          <ItemPricesSection
            prices={form.prices}
            onChange={set('prices')}
            priceTypes={choices.priceTypes}
            errorOf={fieldError}
            clearField={clearField}
          />
          <ItemAttributesSection
            attributes={form.attributes}
            onChange={set('attributes')}
            attributeTypes={choices.attributeTypes}
            errorOf={fieldError}
            clearField={clearField}
          />
          <ItemTagsSection checked={form.tags} onChange={set('tags')} tags={choices.tags} />
          <ItemVariantsSection
            id={id}
            item={item}
            defaultItemId={form.DefaultItemId}
            onChange={set('DefaultItemId')}
            group={group}
            error={fieldError('DefaultItemId')}
          />
          <ImageDrop
            images={form.images}
            onChange={set('images')}
            editable={editable && canUpload}
            isNew={id === undefined}
          />
          <div className="save-problem" tabIndex={-1}>
            <ErrorMessage error={editor.problemMessage ?? action.message} />
          </div>
          {saved && (
            <p role="status" className="ok save-status" tabIndex={-1} ref={editor.statusRef}>
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
    </div>
  );
}
