// Brands, tags, attribute types and price types: the same page for each kind (list-kinds.ts): a
// paged table, a create form (ListCreate.tsx), edit in place (Edit opens the row and sends
// nothing, Save or Enter sends one PUT, Cancel or Escape nothing) and delete. Focus after an
// action: the created row, the row's Edit button after Save or Cancel, the list after a delete,
// the first field with an error after a refusal.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import { errorText, ErrorMessage, Loading, PagedTable, PageTitle } from '../../components.tsx';
import { ApiFormFrame, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import { useAccess } from '../../session.tsx';
import { PageLink } from '../PageLink.tsx';
import { quoted, usePendingFocus } from '../pending-focus.ts';
import './catalog-lists.css';
import { emptyOf, labelsOf, ListCreate, ValuesSchema } from './ListCreate.tsx';
import { LISTS, type ListKind, type Row } from './list-kinds.ts';

const TAKE = 50;

export default function CatalogListsPage({ path }: { path: string }) {
  const kind = LISTS[path] ?? LISTS.brands!;
  return <ListPage key={path} kind={kind} />;
}

function ListPage({ kind }: { kind: ListKind }) {
  const access = useAccess();
  const editable = access.can('catalog', 'write');
  // A row's name leads to its own page (its History tab) for a member who may read the history.
  const rowPage = access.can('history', 'read') ? kind.page : undefined;
  const queries = useQueryClient();
  const [skip, setSkip] = useState(0);
  const key = ['catalog-list', kind.title] as const;
  const list = useQuery({ queryKey: [...key, skip], queryFn: () => kind.list(skip, TAKE) });
  const editing = useApiForm({
    schema: ValuesSchema,
    defaultValues: emptyOf(kind),
    labels: labelsOf(kind),
  });
  const [editingId, setEditingId] = useState<number>();
  const [status, setStatus] = useState('');
  const [removeError, setRemoveError] = useState<string>();
  const [clearSignal, setClearSignal] = useState(0);
  const page = useRef<HTMLDivElement>(null);
  const listRegion = useRef<HTMLDivElement>(null);
  const focusLater = usePendingFocus(list.data, page);
  const reload = () => queries.invalidateQueries({ queryKey: key });

  const nameOf = (row: Row | Record<string, string>) => String(row[kind.fields[0]!.name] ?? '');
  /** One banner at a time: a new action forgets the other forms' failures. */
  const startAction = (keepCreate = false) => {
    setStatus('');
    setRemoveError(undefined);
    editing.clearFailure();
    if (!keepCreate) setClearSignal((n) => n + 1);
  };

  const created = async (row: Row) => {
    startAction(true);
    setStatus(`Created ${kind.singular} “${nameOf(row)}”.`);
    // Rows are in Id order: the new one is the last, on the last page.
    const lastPage = Math.floor((list.data?.TotalCount ?? 0) / TAKE) * TAKE;
    focusLater(`[data-row=${quoted(row.Id)}]`, { afterReload: true, fallback: listRegion });
    if (lastPage !== skip) setSkip(lastPage);
    else await reload();
  };
  const startEditing = (row: Row) => {
    startAction();
    editing.form.reset(
      Object.fromEntries(kind.fields.map((f) => [f.name, String(row[f.name] ?? '')])),
    );
    setEditingId(row.Id);
    focusLater('[data-editing] input');
  };
  const stopEditing = () => {
    if (editingId === undefined) return;
    editing.clearFailure();
    setEditingId(undefined);
    focusLater(`[data-edit=${quoted(editingId)}]`);
  };
  const save = editing.submitWith(async (values) => {
    if (editingId === undefined) return;
    startAction();
    await kind.update(editingId, values);
    setEditingId(undefined);
    setStatus(`Saved ${kind.singular} “${nameOf(values).trim()}”.`);
    focusLater(`[data-edit=${quoted(editingId)}]`, { afterReload: true, fallback: listRegion });
    await reload();
  });
  const onEditKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    stopEditing();
  };
  const remove = (row: Row) => {
    startAction();
    if (!confirm(`Delete ${kind.singular} “${nameOf(row)}”?`)) return;
    kind.remove(row.Id).then(
      async () => {
        setStatus(`Deleted ${kind.singular} “${nameOf(row)}”.`);
        if (editingId === row.Id) setEditingId(undefined);
        focusLater('[data-list]', { afterReload: true, fallback: listRegion });
        // The last row of a page gone: the page before it.
        if (list.data?.Results.length === 1 && skip > 0) setSkip(Math.max(0, skip - TAKE));
        else await reload();
      },
      (error: unknown) => setRemoveError(errorText(error)),
    );
  };

  return (
    <div ref={page} className="catalog-list">
      <PageTitle>{kind.title}</PageTitle>
      {editable && <ListCreate kind={kind} onCreated={created} clearSignal={clearSignal} />}
      <p role="status" className="status">
        {status}
      </p>
      <ErrorMessage error={list.error ?? editing.message ?? removeError} />
      {list.isPending && <Loading />}
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
                    <ApiFormFrame
                      api={editing}
                      onSubmit={save}
                      label={`Edit ${kind.title.toLowerCase()}`}
                      banner={false}
                    >
                      {table}
                    </ApiFormFrame>
                  )
                : undefined
            }
          >
            {list.data.Results.map((row) =>
              editingId === row.Id ? (
                // Its own key: the row is mounted anew, so that no button of the shown row
                // becomes this row's submit button under the click that opened it.
                <tr key={`edit-${row.Id}`} data-editing="" onKeyDown={onEditKey}>
                  <td>{row.Id}</td>
                  {kind.fields.map((f) => (
                    <td key={f.name}>
                      <TextField
                        name={f.name}
                        label={`${f.label} of ${kind.singular} ${row.Id}`}
                        required={f.required}
                      />
                    </td>
                  ))}
                  <td className="actions-cell">
                    <SubmitButton>Save</SubmitButton>
                    <button key="cancel" type="button" onClick={stopEditing}>
                      Cancel
                    </button>
                  </td>
                </tr>
              ) : (
                <tr key={row.Id} data-row={row.Id} tabIndex={-1}>
                  <td data-label="Id">{row.Id}</td>
                  {kind.fields.map((f, index) => (
                    <td key={f.name} data-label={f.label}>
                      {rowPage && index === 0 ? (
                        <PageLink to={`${rowPage}/${row.Id}`}>{String(row[f.name] ?? '')}</PageLink>
                      ) : (
                        String(row[f.name] ?? '')
                      )}
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
