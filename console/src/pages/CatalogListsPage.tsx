// Brands, tags, attribute types and price types: the same page shape for each (a paged table,
// a create form, edit in place, delete), described by one entry of LISTS.
import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api.ts';
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

interface ListKind {
  title: string;
  singular: string;
  listPath: string;
  /** Where POST creates one and `${itemPath}/{id}` reads, updates and deletes one. */
  itemPath: string;
  fields: { name: string; label: string; required?: boolean }[];
}

const LISTS: Record<string, ListKind> = {
  brands: {
    title: 'Brands',
    singular: 'brand',
    listPath: '/private/catalog/brands',
    itemPath: '/private/catalog/brand',
    fields: [{ name: 'Name', label: 'Name', required: true }],
  },
  tags: {
    title: 'Tags',
    singular: 'tag',
    listPath: '/private/catalog/tags',
    itemPath: '/private/catalog/tag',
    fields: [
      { name: 'Name', label: 'Name', required: true },
      { name: 'Description', label: 'Description' },
    ],
  },
  attributes: {
    title: 'Attribute types',
    singular: 'attribute type',
    listPath: '/private/catalog/dynamicattributetypes',
    itemPath: '/private/catalog/dynamicattributetypes',
    fields: [{ name: 'Description', label: 'Description', required: true }],
  },
  pricetypes: {
    title: 'Price types',
    singular: 'price type',
    listPath: '/private/catalog/pricetypes',
    itemPath: '/private/catalog/pricetype',
    fields: [
      { name: 'Description', label: 'Description', required: true },
      { name: 'PriceTypeSymbol', label: 'Symbol', required: true },
    ],
  },
};

const TAKE = 50;
type Row = Record<string, string | number | null> & { Id: number };

const bodyOf = (kind: ListKind, values: Record<string, string>) =>
  Object.fromEntries(
    kind.fields.map((f) => [f.name, values[f.name]?.trim() || (f.required ? '' : null)]),
  );

export default function CatalogListsPage({ path }: { path: string }) {
  const kind = LISTS[path] ?? LISTS.brands!;
  return <ListPage key={path} kind={kind} />;
}

function ListPage({ kind }: { kind: ListKind }) {
  const editable = useAccess().can('catalog', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(
    () => api<Page<Row>>('GET', kind.listPath, { query: { skip, take: TAKE } }),
    [kind, skip],
  );
  const action = useAction();
  const empty = () => Object.fromEntries(kind.fields.map((f) => [f.name, '']));
  const [draft, setDraft] = useState<Record<string, string>>(empty);
  const [editing, setEditing] = useState<{ id: number; values: Record<string, string> }>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await api('POST', kind.itemPath, { body: bodyOf(kind, draft) });
      setDraft(empty());
      list.reload();
    });
  };
  const update = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    void action.run(async () => {
      await api('PUT', `${kind.itemPath}/${editing.id}`, { body: bodyOf(kind, editing.values) });
      setEditing(undefined);
      list.reload();
    });
  };
  const remove = (row: Row) =>
    void action.run(async () => {
      if (!confirm(`Delete ${kind.singular} ${row.Id}?`)) return;
      await api('DELETE', `${kind.itemPath}/${row.Id}`);
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
                <td>{row.Id}</td>
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
                <td>{row.Id}</td>
                {kind.fields.map((f) => (
                  <td key={f.name}>{String(row[f.name] ?? '')}</td>
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
