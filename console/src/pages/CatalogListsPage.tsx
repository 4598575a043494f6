// Brands, tags, attribute types and price types: the same page shape for each (a paged table,
// a create form, edit in place, delete), described by one entry of LISTS.
import { useState, type FormEvent } from 'react';
import { call, client } from '../api.ts';
import {
  ErrorMessage,
  Field,
  Loading,
  PageTitle,
  PagedTable,
  Section,
  useAction,
  useLoad,
} from '../components.tsx';
import { useAccess } from '../session.tsx';

type Row = Record<string, string | number | null> & { Id: number };
type Values = Record<string, string>;

interface ListKind {
  title: string;
  singular: string;
  fields: { name: string; label: string; required?: boolean }[];
  /** The kind's operations, each through the typed client. */
  list(skip: number, take: number): Promise<{ Results: Row[]; TotalCount: number }>;
  create(values: Values): Promise<unknown>;
  update(id: number, values: Values): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

/** A required field as typed; an optional one, null when left empty. */
const required = (values: Values, name: string) => values[name]?.trim() ?? '';
const optional = (values: Values, name: string) => values[name]?.trim() || null;

const LISTS: Record<string, ListKind> = {
  brands: {
    title: 'Brands',
    singular: 'brand',
    fields: [{ name: 'Name', label: 'Name', required: true }],
    list: (skip, take) =>
      call(client.GET('/private/catalog/brands', { params: { query: { skip, take } } })),
    create: (values) =>
      call(client.POST('/private/catalog/brand', { body: { Name: required(values, 'Name') } })),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/brand/{id}', {
          params: { path: { id } },
          body: { Name: required(values, 'Name') },
        }),
      ),
    remove: (id) =>
      call(client.DELETE('/private/catalog/brand/{id}', { params: { path: { id } } })),
  },
  tags: {
    title: 'Tags',
    singular: 'tag',
    fields: [
      { name: 'Name', label: 'Name', required: true },
      { name: 'Description', label: 'Description' },
    ],
    list: (skip, take) =>
      call(client.GET('/private/catalog/tags', { params: { query: { skip, take } } })),
    create: (values) =>
      call(
        client.POST('/private/catalog/tag', {
          body: { Name: required(values, 'Name'), Description: optional(values, 'Description') },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/tag/{id}', {
          params: { path: { id } },
          body: { Name: required(values, 'Name'), Description: optional(values, 'Description') },
        }),
      ),
    remove: (id) => call(client.DELETE('/private/catalog/tag/{id}', { params: { path: { id } } })),
  },
  attributes: {
    title: 'Attribute types',
    singular: 'attribute type',
    fields: [{ name: 'Description', label: 'Description', required: true }],
    list: (skip, take) =>
      call(
        client.GET('/private/catalog/dynamicattributetypes', { params: { query: { skip, take } } }),
      ),
    create: (values) =>
      call(
        client.POST('/private/catalog/dynamicattributetypes', {
          body: { Description: required(values, 'Description') },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/dynamicattributetypes/{id}', {
          params: { path: { id } },
          body: { Description: required(values, 'Description') },
        }),
      ),
    remove: (id) =>
      call(
        client.DELETE('/private/catalog/dynamicattributetypes/{id}', { params: { path: { id } } }),
      ),
  },
  pricetypes: {
    title: 'Price types',
    singular: 'price type',
    fields: [
      { name: 'Description', label: 'Description', required: true },
      { name: 'PriceTypeSymbol', label: 'Symbol', required: true },
    ],
    list: (skip, take) =>
      call(client.GET('/private/catalog/pricetypes', { params: { query: { skip, take } } })),
    create: (values) =>
      call(
        client.POST('/private/catalog/pricetype', {
          body: {
            Description: required(values, 'Description'),
            PriceTypeSymbol: required(values, 'PriceTypeSymbol'),
          },
        }),
      ),
    update: (id, values) =>
      call(
        client.PUT('/private/catalog/pricetype/{id}', {
          params: { path: { id } },
          body: {
            Description: required(values, 'Description'),
            PriceTypeSymbol: required(values, 'PriceTypeSymbol'),
          },
        }),
      ),
    remove: (id) =>
      call(client.DELETE('/private/catalog/pricetype/{id}', { params: { path: { id } } })),
  },
};

const TAKE = 50;

export default function CatalogListsPage({ path }: { path: string }) {
  const kind = LISTS[path] ?? LISTS.brands!;
  return <ListPage key={path} kind={kind} />;
}

function ListPage({ kind }: { kind: ListKind }) {
  const editable = useAccess().can('catalog', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(() => kind.list(skip, TAKE), [kind, skip]);
  const action = useAction();
  const empty = () => Object.fromEntries(kind.fields.map((f) => [f.name, '']));
  const [draft, setDraft] = useState<Record<string, string>>(empty);
  const [editing, setEditing] = useState<{ id: number; values: Record<string, string> }>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await kind.create(draft);
      setDraft(empty());
      list.reload();
    });
  };
  const update = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    void action.run(async () => {
      await kind.update(editing.id, editing.values);
      setEditing(undefined);
      list.reload();
    });
  };
  const remove = (row: Row) =>
    void action.run(async () => {
      if (!confirm(`Delete ${kind.singular} ${row.Id}?`)) return;
      await kind.remove(row.Id);
      list.reload();
    });

  return (
    <>
      <PageTitle>{kind.title}</PageTitle>
      <ErrorMessage error={list.error ?? action.error} />
      {editable && (
        <Section title={`New ${kind.singular}`}>
          <form className="row" onSubmit={create}>
            {kind.fields.map((f) => (
              <Field
                key={f.name}
                label={f.label}
                required={f.required}
                value={draft[f.name] ?? ''}
                onChange={(value) => setDraft((d) => ({ ...d, [f.name]: value }))}
              />
            ))}
            <button type="submit" disabled={action.busy}>
              Create {kind.singular}
            </button>
          </form>
        </Section>
      )}
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <PagedTable
          caption={kind.title}
          total={list.data.TotalCount}
          headers={['Id', ...kind.fields.map((f) => f.label), ...(editable ? ['Actions'] : [])]}
          skip={skip}
          take={TAKE}
          onPage={setSkip}
          wrap={(table) => <form onSubmit={update}>{table}</form>}
        >
          {list.data.Results.map((row) =>
            editing?.id === row.Id ? (
              <tr key={row.Id}>
                <td data-label="Id">{row.Id}</td>
                {kind.fields.map((f) => (
                  <td key={f.name}>
                    <Field
                      label={`${f.label} of ${kind.singular} ${row.Id}`}
                      required={f.required}
                      value={editing.values[f.name] ?? ''}
                      onChange={(value) =>
                        setEditing({
                          ...editing,
                          values: { ...editing.values, [f.name]: value },
                        })
                      }
                    />
                  </td>
                ))}
                <td>
                  <button type="submit">Save</button>
                  <button type="button" onClick={() => setEditing(undefined)}>
                    Cancel
                  </button>
                </td>
              </tr>
            ) : (
              <tr key={row.Id}>
                <td data-label="Id">{row.Id}</td>
                {kind.fields.map((f) => (
                  <td key={f.name} data-label={f.label}>
                    {String(row[f.name] ?? '')}
                  </td>
                ))}
                {editable && (
                  <td>
                    <button
                      type="button"
                      onClick={() =>
                        setEditing({
                          id: row.Id,
                          values: Object.fromEntries(
                            kind.fields.map((f) => [f.name, String(row[f.name] ?? '')]),
                          ),
                        })
                      }
                    >
                      Edit {String(row[kind.fields[0]!.name])}
                    </button>
                    <button type="button" onClick={() => remove(row)}>
                      Delete {String(row[kind.fields[0]!.name])}
                    </button>
                  </td>
                )}
              </tr>
            ),
          )}
        </PagedTable>
      )}
    </>
  );
}
