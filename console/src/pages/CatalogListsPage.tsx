// Brands, tags, attribute types and price types: the same page shape for each (a paged table,
// a create form, edit in place, delete), described by one entry of LISTS. Each form's errors are
// its own (useAction per form): a field's error in plain words under the field, gone when the
// field changes. Focus after an action: the created row, the row's Edit button after Save or
// Cancel, the list after a delete, the first field with an error after a refusal.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
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
import { quoted, usePendingFocus } from './pending-focus.ts';
import './catalog-lists.css';

type Row = Record<string, string | number | null> & { Id: number };
type Values = Record<string, string>;

interface ListKind {
  title: string;
  singular: string;
  fields: { name: string; label: string; required?: boolean }[];
  /** The kind's operations, each through the typed client. */
  list(skip: number, take: number): Promise<{ Results: Row[]; TotalCount: number }>;
  create(values: Values): Promise<Row>;
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

/** Focuses the first field marked invalid inside `root` whenever `failure` is a new one. */
function useFocusOnInvalid(failure: unknown, root: { current: HTMLElement | null }) {
  useEffect(() => {
    if (failure !== undefined)
      root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failure, root]);
}

function ListPage({ kind }: { kind: ListKind }) {
  const editable = useAccess().can('catalog', 'write');
  const [skip, setSkip] = useState(0);
  const list = useLoad(() => kind.list(skip, TAKE), [kind, skip]);
  const labels = Object.fromEntries(kind.fields.map((f) => [f.name, f.label]));
  const creating = useAction(labels);
  const saving = useAction(labels);
  const removing = useAction();
  const empty = () => Object.fromEntries(kind.fields.map((f) => [f.name, '']));
  const [draft, setDraft] = useState<Values>(empty);
  const [editing, setEditing] = useState<{ id: number; values: Values }>();
  const [status, setStatus] = useState('');
  const page = useRef<HTMLDivElement>(null);
  const listRegion = useRef<HTMLDivElement>(null);
  const createForm = useRef<HTMLFormElement>(null);
  const editRow = useRef<HTMLTableRowElement>(null);
  const focusLater = usePendingFocus(list.data, page);
  useFocusOnInvalid(creating.error, createForm);
  useFocusOnInvalid(saving.error, editRow);

  const nameOf = (row: Row | Values) => String(row[kind.fields[0]!.name] ?? '');
  /** One banner at a time: a new action forgets the other forms' failures. */
  const only = (action: ReturnType<typeof useAction>) => {
    for (const other of [creating, saving, removing])
      if (other !== action) other.setError(undefined);
    setStatus('');
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    only(creating);
    const before = list.data?.TotalCount ?? 0;
    void creating.run(async () => {
      const created = await kind.create(draft);
      setDraft(empty());
      setStatus(`Created ${kind.singular} “${nameOf(created)}”.`);
      // Rows are in Id order: the new one is the last, on the last page.
      const lastPage = Math.floor(before / TAKE) * TAKE;
      if (lastPage !== skip) setSkip(lastPage);
      else list.reload();
      focusLater(`[data-row=${quoted(created.Id)}]`, { afterReload: true, fallback: listRegion });
    });
  };
  const startEditing = (row: Row) => {
    only(saving);
    saving.setError(undefined);
    setEditing({
      id: row.Id,
      values: Object.fromEntries(kind.fields.map((f) => [f.name, String(row[f.name] ?? '')])),
    });
    focusLater('[data-editing] input');
  };
  const stopEditing = () => {
    if (!editing) return;
    saving.setError(undefined);
    setEditing(undefined);
    focusLater(`[data-edit=${quoted(editing.id)}]`);
  };
  const update = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    only(saving);
    void saving.run(async () => {
      await kind.update(editing.id, editing.values);
      setEditing(undefined);
      setStatus(`Saved ${kind.singular} “${nameOf(editing.values).trim()}”.`);
      list.reload();
      focusLater(`[data-edit=${quoted(editing.id)}]`, {
        afterReload: true,
        fallback: listRegion,
      });
    });
  };
  const onEditKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    stopEditing();
  };
  const remove = (row: Row) => {
    only(removing);
    void removing.run(async () => {
      if (!confirm(`Delete ${kind.singular} “${nameOf(row)}”?`)) return;
      await kind.remove(row.Id);
      setStatus(`Deleted ${kind.singular} “${nameOf(row)}”.`);
      if (editing?.id === row.Id) setEditing(undefined);
      // The last row of a page gone: the page before it.
      if (list.data?.Results.length === 1 && skip > 0) setSkip(Math.max(0, skip - TAKE));
      else list.reload();
      focusLater('[data-list]', { afterReload: true, fallback: listRegion });
    });
  };

  return (
    <div ref={page} className="catalog-list">
      <PageTitle>{kind.title}</PageTitle>
      {editable && (
        <Section title={`New ${kind.singular}`}>
          <ErrorMessage error={creating.message} />
          <form ref={createForm} className="row" onSubmit={create}>
            {kind.fields.map((f) => (
              <Field
                key={f.name}
                label={f.label}
                required={f.required}
                value={draft[f.name] ?? ''}
                error={creating.fieldError(f.name)}
                onChange={(value) => {
                  setDraft((d) => ({ ...d, [f.name]: value }));
                  creating.clearField(f.name);
                }}
              />
            ))}
            <button type="submit" disabled={creating.busy}>
              Create {kind.singular}
            </button>
          </form>
        </Section>
      )}
      <p role="status" className="status">
        {status}
      </p>
      <ErrorMessage error={list.error ?? saving.message ?? removing.message} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <div
          ref={listRegion}
          data-list=""
          tabIndex={-1}
          role="group"
          aria-label={`${kind.title} list`}
          className="list-region"
        >
          <PagedTable
            caption={kind.title}
            total={list.data.TotalCount}
            headers={['Id', ...kind.fields.map((f) => f.label), ...(editable ? ['Actions'] : [])]}
            skip={skip}
            take={TAKE}
            onPage={setSkip}
            wrap={
              editable
                ? (table) => (
                    <form onSubmit={update} aria-label={`Edit ${kind.title.toLowerCase()}`}>
                      {table}
                    </form>
                  )
                : undefined
            }
          >
            {list.data.Results.map((row) =>
              editing?.id === row.Id ? (
                // Its own key: the row is mounted anew, so that no button of the shown row
                // becomes this row's submit button under the click that opened it.
                <tr key={`edit-${row.Id}`} ref={editRow} data-editing="" onKeyDown={onEditKey}>
                  <td>{row.Id}</td>
                  {kind.fields.map((f) => (
                    <td key={f.name}>
                      <Field
                        label={`${f.label} of ${kind.singular} ${row.Id}`}
                        required={f.required}
                        value={editing.values[f.name] ?? ''}
                        error={saving.fieldError(f.name)}
                        onChange={(value) => {
                          setEditing({
                            ...editing,
                            values: { ...editing.values, [f.name]: value },
                          });
                          saving.clearField(f.name);
                        }}
                      />
                    </td>
                  ))}
                  <td className="actions-cell">
                    <button key="save" type="submit" disabled={saving.busy}>
                      Save
                    </button>
                    <button key="cancel" type="button" onClick={stopEditing}>
                      Cancel
                    </button>
                  </td>
                </tr>
              ) : (
                <tr key={row.Id} data-row={row.Id} tabIndex={-1}>
                  <td data-label="Id">{row.Id}</td>
                  {kind.fields.map((f) => (
                    <td key={f.name} data-label={f.label}>
                      {String(row[f.name] ?? '')}
                    </td>
                  ))}
                  {editable && (
                    <td className="actions-cell">
                      <button
                        key="edit"
                        type="button"
                        data-edit={row.Id}
                        onClick={() => startEditing(row)}
                      >
                        Edit<span className="visually-hidden"> {nameOf(row)}</span>
                      </button>
                      <button
                        key="delete"
                        type="button"
                        className="danger"
                        onClick={() => remove(row)}
                      >
                        Delete<span className="visually-hidden"> {nameOf(row)}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ),
            )}
          </PagedTable>
        </div>
      )}
    </div>
  );
}
