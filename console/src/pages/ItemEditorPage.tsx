// One item: its fields, prices, dynamic attributes, tags, variant group and images. Saving sends
// the whole item in one PUT (or POST for a new one): the API replaces prices, attributes and tags
// when they are in the body.
import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api.ts';
import { catalogChoices, type CatalogChoices } from '../catalog.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  Section,
  Select,
  useAction,
  useLoad,
} from '../components.tsx';
import { navigate } from '../router.ts';
import { useAccess } from '../session.tsx';
import type { Item } from '../types.ts';
import { ImageDrop } from './ImageDrop.tsx';

interface PriceRow {
  PriceTypeId: string;
  NormalPrice: string;
  DiscountPrice: string;
}
interface AttributeRow {
  TypeId: string;
  Value: string;
}
interface Form {
  Title: string;
  Name: string;
  SKU: string;
  Model: string;
  ShortDescription: string;
  LongDescription: string;
  ItemStatusId: string;
  CategoryId: string;
  BrandId: string;
  DefaultItemId: string;
  prices: PriceRow[];
  attributes: AttributeRow[];
  tags: Set<number>;
}

const text = (value: string | null | undefined) => value ?? '';
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const idOrNull = (value: string) => (value === '' ? null : Number(value));

function formOf(item?: Item): Form {
  return {
    Title: text(item?.Title),
    Name: text(item?.Name),
    SKU: text(item?.SKU),
    Model: text(item?.Model),
    ShortDescription: text(item?.ShortDescription),
    LongDescription: text(item?.LongDescription),
    ItemStatusId: String(item?.ItemStatusId ?? 1),
    CategoryId: item?.CategoryId ? String(item.CategoryId) : '',
    BrandId: item?.BrandId ? String(item.BrandId) : '',
    DefaultItemId: item?.DefaultItemId ? String(item.DefaultItemId) : '',
    prices: (item?.Prices ?? []).map((p) => ({
      PriceTypeId: String(p.PriceTypeId),
      NormalPrice: String(p.NormalPrice),
      DiscountPrice: p.DiscountPrice === null ? '' : String(p.DiscountPrice),
    })),
    attributes: (item?.DynamicAttributes ?? []).map((a) => ({
      TypeId: String(a.TypeId),
      Value: a.Value,
    })),
    tags: new Set((item?.Tags ?? []).map((t) => t.Id)),
  };
}

function bodyOf(form: Form) {
  return {
    Title: form.Title.trim(),
    Name: orNull(form.Name),
    SKU: orNull(form.SKU),
    Model: orNull(form.Model),
    ShortDescription: orNull(form.ShortDescription),
    LongDescription: orNull(form.LongDescription),
    ItemStatusId: Number(form.ItemStatusId),
    CategoryId: idOrNull(form.CategoryId),
    BrandId: idOrNull(form.BrandId),
    DefaultItemId: idOrNull(form.DefaultItemId),
    Prices: form.prices.map((p) => ({
      PriceTypeId: Number(p.PriceTypeId),
      NormalPrice: Number(p.NormalPrice),
      DiscountPrice: p.DiscountPrice === '' ? null : Number(p.DiscountPrice),
    })),
    DynamicAttributes: form.attributes.map((a) => ({ TypeId: Number(a.TypeId), Value: a.Value })),
    Tags: [...form.tags].map((Id) => ({ Id })),
  };
}

async function loadEditor(id: number | undefined) {
  const [choices, item, variants] = await Promise.all([
    catalogChoices(),
    id === undefined ? undefined : api<Item>('GET', `/private/catalog/item/${id}`),
    id === undefined
      ? undefined
      : api<Page<Item>>('GET', '/private/catalog/items/search', {
          query: { defaultItemId: id, take: 100 },
        }),
  ]);
  return { choices, item, variants: variants?.Results.filter((v) => v.Id !== id) ?? [] };
}

export default function ItemEditorPage({ path }: { path: string }) {
  const raw = path.split('/')[1] ?? 'new';
  const id = raw === 'new' ? undefined : Number(raw);
  const { data, error, loading } = useLoad(() => loadEditor(id), [id]);
  if (loading && !data) return <Loading />;
  if (!data) return <ErrorMessage error={error} />;
  return <ItemEditor key={id ?? 'new'} id={id} {...data} />;
}

function ItemEditor(props: {
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
  const [form, setForm] = useState(() => formOf(item));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) => {
      setSaved(false);
      setForm((f) => ({ ...f, [key]: value }));
    };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      if (id === undefined) {
        const created = await api<Item>('POST', '/private/catalog/item', { body: bodyOf(form) });
        navigate(`items/${created.Id}`);
      } else {
        const updated = await api<Item>('PUT', `/private/catalog/item/${id}`, {
          body: bodyOf(form),
        });
        setForm(formOf(updated));
        setSaved(true);
      }
    });
  };
  const remove = () =>
    void action.run(async () => {
      if (!confirm(`Delete item ${id}?`)) return;
      await api('DELETE', `/private/catalog/item/${id}`);
      navigate('items');
    });

  const priceTypeOptions = choices.priceTypes.map((p) => ({
    value: String(p.Id),
    label: `${p.Description} (${p.PriceTypeSymbol})`,
  }));
  const attributeOptions = choices.attributeTypes.map((t) => ({
    value: String(t.Id),
    label: t.Description,
  }));

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
          <Section title="Fields">
            <div className="grid">
              <Field label="Title" value={form.Title} onChange={set('Title')} required />
              <Field label="Name" value={form.Name} onChange={set('Name')} />
              <Field label="SKU" value={form.SKU} onChange={set('SKU')} />
              <Field label="Model" value={form.Model} onChange={set('Model')} />
              <Select
                label="Status"
                value={form.ItemStatusId}
                onChange={set('ItemStatusId')}
                options={[
                  { value: '1', label: 'Active' },
                  { value: '2', label: 'Passive' },
                ]}
              />
              <Select
                label="Category"
                value={form.CategoryId}
                onChange={set('CategoryId')}
                empty="(none)"
                options={choices.categories.map((c) => ({
                  value: String(c.category.Id),
                  label: c.path,
                }))}
              />
              <Select
                label="Brand"
                value={form.BrandId}
                onChange={set('BrandId')}
                empty="(none)"
                options={choices.brands.map((b) => ({ value: String(b.Id), label: b.Name }))}
              />
            </div>
            <Field
              label="Short description"
              value={form.ShortDescription}
              onChange={set('ShortDescription')}
              multiline
            />
            <Field
              label="Long description"
              value={form.LongDescription}
              onChange={set('LongDescription')}
              multiline
            />
          </Section>

          <Section title="Prices">
            {form.prices.map((price, i) => (
              <div className="row" key={i}>
                <Select
                  label={`Price type ${i + 1}`}
                  value={price.PriceTypeId}
                  options={priceTypeOptions}
                  onChange={(v) =>
                    set('prices')(
                      form.prices.map((p, j) => (j === i ? { ...p, PriceTypeId: v } : p)),
                    )
                  }
                />
                <Field
                  label={`Normal price ${i + 1}`}
                  type="number"
                  step="0.01"
                  value={price.NormalPrice}
                  required
                  onChange={(v) =>
                    set('prices')(
                      form.prices.map((p, j) => (j === i ? { ...p, NormalPrice: v } : p)),
                    )
                  }
                />
                <Field
                  label={`Discount price ${i + 1}`}
                  type="number"
                  step="0.01"
                  value={price.DiscountPrice}
                  onChange={(v) =>
                    set('prices')(
                      form.prices.map((p, j) => (j === i ? { ...p, DiscountPrice: v } : p)),
                    )
                  }
                />
                <button
                  type="button"
                  onClick={() => set('prices')(form.prices.filter((_, j) => j !== i))}
                >
                  Remove price {i + 1}
                </button>
              </div>
            ))}
            {priceTypeOptions.length === 0 ? (
              <p className="muted">Create a price type first (Price types page).</p>
            ) : (
              <button
                type="button"
                onClick={() =>
                  set('prices')([
                    ...form.prices,
                    { PriceTypeId: priceTypeOptions[0]!.value, NormalPrice: '', DiscountPrice: '' },
                  ])
                }
              >
                Add price
              </button>
            )}
          </Section>

          <Section title="Dynamic attributes">
            {form.attributes.map((attribute, i) => (
              <div className="row" key={i}>
                <Select
                  label={`Attribute type ${i + 1}`}
                  value={attribute.TypeId}
                  options={attributeOptions}
                  onChange={(v) =>
                    set('attributes')(
                      form.attributes.map((a, j) => (j === i ? { ...a, TypeId: v } : a)),
                    )
                  }
                />
                <Field
                  label={`Attribute value ${i + 1}`}
                  value={attribute.Value}
                  required
                  onChange={(v) =>
                    set('attributes')(
                      form.attributes.map((a, j) => (j === i ? { ...a, Value: v } : a)),
                    )
                  }
                />
                <button
                  type="button"
                  onClick={() => set('attributes')(form.attributes.filter((_, j) => j !== i))}
                >
                  Remove attribute {i + 1}
                </button>
              </div>
            ))}
            {attributeOptions.length === 0 ? (
              <p className="muted">Create an attribute type first (Attribute types page).</p>
            ) : (
              <button
                type="button"
                onClick={() =>
                  set('attributes')([
                    ...form.attributes,
                    { TypeId: attributeOptions[0]!.value, Value: '' },
                  ])
                }
              >
                Add attribute
              </button>
            )}
          </Section>

          <Section title="Tags">
            {choices.tags.length === 0 && <p className="muted">No tags yet (Tags page).</p>}
            <div className="checks">
              {choices.tags.map((tag) => (
                <label key={tag.Id}>
                  <input
                    type="checkbox"
                    checked={form.tags.has(tag.Id)}
                    onChange={(e) => {
                      const tags = new Set(form.tags);
                      if (e.target.checked) tags.add(tag.Id);
                      else tags.delete(tag.Id);
                      set('tags')(tags);
                    }}
                  />
                  {tag.Name}
                </label>
              ))}
            </div>
          </Section>

          <Section title="Variants">
            <Field
              label="Default item of the variant group (Id; empty: stand-alone)"
              type="number"
              value={form.DefaultItemId}
              onChange={set('DefaultItemId')}
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
