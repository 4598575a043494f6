// The category tree: drag a category onto another to make it its child (or onto "Top level"),
// or, with the keyboard, choose its new parent in its "Parent" list and press its Move button
// (choosing alone changes nothing). The tree the API answers does not name a node's parent: it is
// where the tree holds it. Create, edit (name and descriptions) and delete; each form's errors
// next to its fields; the API's refusals (a cycle, a duplicate name) in plain words. Focus after
// an action: the moved, created or saved category (its name), the tree after a delete.
import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { call, client } from '../api.ts';
import { categoryTree, flattenTree } from '../catalog.ts';
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
import { useAccess } from '../session.tsx';
import type { Category } from '../types.ts';
import { quoted, usePendingFocus } from './pending-focus.ts';
import './categories.css';

const DRAG_TYPE = 'application/x-category-id';
const TOP = '';

/** A category's place: its parent (null at the top) and its name with its ancestors'. */
interface Place {
  parentId: number | null;
  path: string;
}

/** Every category's place, from the tree's nesting. */
function placesOf(nodes: Category[], parentId: number | null = null, path = '') {
  const places = new Map<number, Place>();
  const walk = (level: Category[], parent: number | null, above: string) => {
    for (const category of level) {
      const here = above ? `${above} / ${category.Name}` : category.Name;
      places.set(category.Id, { parentId: parent, path: here });
      walk(category.CategoryTreeItems ?? [], category.Id, here);
    }
  };
  walk(nodes, parentId, path);
  return places;
}

/** The ids of a category and all its descendants (none of them can become its parent). */
function subtreeIds(category: Category): Set<number> {
  const ids = new Set<number>();
  const walk = (node: Category) => {
    ids.add(node.Id);
    for (const child of node.CategoryTreeItems ?? []) walk(child);
  };
  walk(category);
  return ids;
}

const CATEGORY_LABELS = {
  Name: 'Name',
  ParentCategoryId: 'Parent',
  ShortDescription: 'Short description',
  LongDescription: 'Long description',
};

interface Editing {
  id: number;
  name: string;
  shortDescription: string;
  longDescription: string;
}

export default function CategoriesPage() {
  const editable = useAccess().can('catalog', 'write');
  const tree = useLoad(categoryTree, []);
  const creating = useAction(CATEGORY_LABELS);
  const saving = useAction(CATEGORY_LABELS);
  const moving = useAction(CATEGORY_LABELS);
  const removing = useAction();
  const [name, setName] = useState('');
  const [parent, setParent] = useState(TOP);
  const [editing, setEditing] = useState<Editing>();
  /** Parents chosen in the lists and not moved to yet, by category id. */
  const [chosen, setChosen] = useState<Record<number, string>>({});
  /** The category whose list offers every parent (the others offer only their own parent). */
  const [offering, setOffering] = useState<number>();
  /** The category the last move failed for: its error is shown under its list. */
  const [moveFailed, setMoveFailed] = useState<number>();
  const [dropTarget, setDropTarget] = useState<number | 'top' | undefined>();
  const [status, setStatus] = useState('');
  const page = useRef<HTMLDivElement>(null);
  const treeRegion = useRef<HTMLDivElement>(null);
  const createForm = useRef<HTMLFormElement>(null);
  const editForm = useRef<HTMLFormElement>(null);
  const focusLater = usePendingFocus(tree.data, page);

  const flat = useMemo(() => flattenTree(tree.data ?? []), [tree.data]);
  const places = useMemo(() => placesOf(tree.data ?? []), [tree.data]);
  const parentOptions = useMemo(
    () => flat.map((c) => ({ value: String(c.category.Id), label: c.path })),
    [flat],
  );
  const pathOf = (id: number | null) => (id === null ? 'the top level' : places.get(id)?.path);

  useEffect(() => {
    if (creating.error !== undefined)
      createForm.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [creating.error]);
  useEffect(() => {
    if (saving.error !== undefined)
      editForm.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [saving.error]);

  /** One banner at a time: a new action forgets the other forms' failures. */
  const only = (action: ReturnType<typeof useAction>) => {
    for (const other of [creating, saving, moving, removing])
      if (other !== action) other.setError(undefined);
    setStatus('');
  };

  const reparent = (category: Category, parentId: number | null) => {
    only(moving);
    setMoveFailed(undefined);
    void moving
      .run(async () => {
        await call(
          client.PATCH('/private/catalog/category/{id}', {
            params: { path: { id: category.Id } },
            body: { ParentCategoryId: parentId },
          }),
        );
        setChosen(({ [category.Id]: _moved, ...others }) => others);
        setStatus(`Moved “${category.Name}” to ${pathOf(parentId) ?? 'its new parent'}.`);
        tree.reload();
        // The moved category is mounted anew under its new parent: its name takes the focus.
        focusLater(`[data-node=${quoted(category.Id)}]`, {
          afterReload: true,
          fallback: treeRegion,
        });
      })
      .then((moved) => {
        if (!moved) setMoveFailed(category.Id);
      });
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    only(creating);
    void creating.run(async () => {
      const created = await call(
        client.POST('/private/catalog/category', {
          body: { Name: name.trim(), ParentCategoryId: parent === TOP ? null : Number(parent) },
        }),
      );
      setName('');
      setStatus(`Created category “${created.Name}”.`);
      tree.reload();
      focusLater(`[data-node=${quoted(created.Id)}]`, {
        afterReload: true,
        fallback: treeRegion,
      });
    });
  };
  const startEditing = (category: Category) => {
    only(saving);
    saving.setError(undefined);
    setEditing({
      id: category.Id,
      name: category.Name,
      shortDescription: category.ShortDescription ?? '',
      longDescription: category.LongDescription ?? '',
    });
    focusLater('[data-editing] input');
  };
  const stopEditing = () => {
    if (!editing) return;
    saving.setError(undefined);
    setEditing(undefined);
    focusLater(`[data-edit=${quoted(editing.id)}]`);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    only(saving);
    void saving.run(async () => {
      const saved = await call(
        client.PATCH('/private/catalog/category/{id}', {
          params: { path: { id: editing.id } },
          body: {
            Name: editing.name.trim(),
            ShortDescription: editing.shortDescription.trim() || null,
            LongDescription: editing.longDescription.trim() || null,
          },
        }),
      );
      setEditing(undefined);
      setStatus(`Saved category “${saved.Name}”.`);
      tree.reload();
      focusLater(`[data-edit=${quoted(editing.id)}]`, {
        afterReload: true,
        fallback: treeRegion,
      });
    });
  };
  const remove = (category: Category) => {
    only(removing);
    void removing.run(async () => {
      if (!confirm(`Delete category “${category.Name}”?`)) return;
      await call(
        client.DELETE('/private/catalog/category/{id}', { params: { path: { id: category.Id } } }),
      );
      setStatus(`Deleted category “${category.Name}”.`);
      if (editing?.id === category.Id) setEditing(undefined);
      tree.reload();
      focusLater('[data-tree]', { afterReload: true, fallback: treeRegion });
    });
  };

  const dropOn = (target: number | null) => (event: DragEvent) => {
    event.preventDefault();
    setDropTarget(undefined);
    const dragged = Number(event.dataTransfer.getData(DRAG_TYPE));
    const category = flat.find((c) => c.category.Id === dragged)?.category;
    if (category && dragged !== target) reparent(category, target);
  };
  const allowDrop = (target: number | 'top') => (event: DragEvent) => {
    if (!editable) return;
    event.preventDefault();
    setDropTarget(target);
  };

  /** The parents a category's list offers: all but itself and its subcategories, once asked. */
  const choicesFor = (category: Category, current: string) => {
    if (offering !== category.Id && chosen[category.Id] === undefined)
      return parentOptions.filter((o) => o.value === current);
    const own = subtreeIds(category);
    return parentOptions.filter((o) => !own.has(Number(o.value)));
  };

  const renderNodes = (nodes: Category[]) => (
    <ul className="tree">
      {nodes.map((category) => {
        const place = places.get(category.Id);
        const current = place?.parentId == null ? TOP : String(place.parentId);
        const choice = chosen[category.Id] ?? current;
        const failed = moveFailed === category.Id ? moving.message : undefined;
        const errorId = `move-error-${category.Id}`;
        const listId = `parent-of-${category.Id}`;
        return (
          <li key={category.Id}>
            <div
              className={dropTarget === category.Id ? 'node drop' : 'node'}
              draggable={editable}
              data-category={category.Name}
              onDragStart={(event) => {
                event.dataTransfer.setData(DRAG_TYPE, String(category.Id));
                event.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={allowDrop(category.Id)}
              onDragLeave={() => setDropTarget(undefined)}
              onDrop={dropOn(category.Id)}
            >
              <span className="name" tabIndex={-1} data-node={category.Id}>
                {category.Name}
              </span>
              {editable && (
                <span className="node-controls">
                  <span className="parent">
                    <label htmlFor={listId}>
                      Parent<span className="visually-hidden"> of {category.Name}</span>
                    </label>
                    <select
                      id={listId}
                      value={choice}
                      aria-invalid={failed ? true : undefined}
                      aria-describedby={failed ? errorId : undefined}
                      onFocus={() => setOffering(category.Id)}
                      onPointerEnter={() => setOffering(category.Id)}
                      onChange={(e) => {
                        const value = e.target.value;
                        setChosen((all) => ({ ...all, [category.Id]: value }));
                        if (moveFailed === category.Id) setMoveFailed(undefined);
                      }}
                    >
                      <option value={TOP}>(top level)</option>
                      {choicesFor(category, current).map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </span>
                  <button
                    type="button"
                    disabled={choice === current || moving.busy}
                    onClick={() => reparent(category, choice === TOP ? null : Number(choice))}
                  >
                    Move<span className="visually-hidden"> {category.Name}</span>
                  </button>
                  <button
                    type="button"
                    data-edit={category.Id}
                    onClick={() => startEditing(category)}
                  >
                    Edit<span className="visually-hidden"> {category.Name}</span>
                  </button>
                  <button type="button" className="danger" onClick={() => remove(category)}>
                    Delete<span className="visually-hidden"> {category.Name}</span>
                  </button>
                </span>
              )}
            </div>
            {failed && (
              <p id={errorId} className="field-error">
                {failed}
              </p>
            )}
            {editing?.id === category.Id && (
              <form
                ref={editForm}
                className="node-edit"
                data-editing=""
                aria-label={`Edit category ${category.Name}`}
                onSubmit={save}
                onKeyDown={(event) => {
                  if (event.key !== 'Escape') return;
                  event.preventDefault();
                  stopEditing();
                }}
              >
                <ErrorMessage error={saving.message} />
                <Field
                  label={`Name of ${category.Name}`}
                  value={editing.name}
                  required
                  error={saving.fieldError('Name')}
                  onChange={(value) => {
                    setEditing({ ...editing, name: value });
                    saving.clearField('Name');
                  }}
                />
                <Field
                  label={`Short description of ${category.Name}`}
                  value={editing.shortDescription}
                  multiline
                  error={saving.fieldError('ShortDescription')}
                  onChange={(value) => {
                    setEditing({ ...editing, shortDescription: value });
                    saving.clearField('ShortDescription');
                  }}
                />
                <Field
                  label={`Long description of ${category.Name}`}
                  value={editing.longDescription}
                  multiline
                  error={saving.fieldError('LongDescription')}
                  onChange={(value) => {
                    setEditing({ ...editing, longDescription: value });
                    saving.clearField('LongDescription');
                  }}
                />
                <button type="submit" disabled={saving.busy}>
                  Save
                </button>
                <button type="button" onClick={stopEditing}>
                  Cancel
                </button>
              </form>
            )}
            {(category.CategoryTreeItems?.length ?? 0) > 0 &&
              renderNodes(category.CategoryTreeItems)}
          </li>
        );
      })}
    </ul>
  );

  return (
    <div ref={page} className="categories-page">
      <PageTitle>Categories</PageTitle>
      {editable && (
        <Section title="New category">
          <ErrorMessage error={creating.message} />
          <form ref={createForm} onSubmit={create} className="row">
            <Field
              label="Name"
              value={name}
              required
              error={creating.fieldError('Name')}
              onChange={(value) => {
                setName(value);
                creating.clearField('Name');
              }}
            />
            <Select
              label="Parent"
              value={parent}
              onChange={(value) => {
                setParent(value);
                creating.clearField('ParentCategoryId');
                // A duplicate name is one at this place: another place may take it.
                creating.clearField('Name');
              }}
              empty="(top level)"
              options={parentOptions}
              error={creating.fieldError('ParentCategoryId')}
            />
            <button type="submit" disabled={creating.busy}>
              Create category
            </button>
          </form>
        </Section>
      )}
      <Section title="Tree">
        {editable && (
          <p className="muted">
            Drag a category onto another to move it there. With the keyboard, choose its new parent
            in its Parent list, then press Move.
          </p>
        )}
        <p role="status" className="status">
          {status}
        </p>
        <ErrorMessage
          error={
            tree.error ??
            moving.message ??
            removing.message ??
            (editing ? undefined : saving.message)
          }
        />
        {tree.loading && !tree.data && <Loading />}
        <div
          ref={treeRegion}
          data-tree=""
          tabIndex={-1}
          role="group"
          aria-label="Category tree"
          className="tree-region"
        >
          {tree.data?.length === 0 && <p>No categories yet.</p>}
          {tree.data && renderNodes(tree.data)}
        </div>
        {editable && (
          <div
            className={dropTarget === 'top' ? 'dropzone over' : 'dropzone'}
            onDragOver={allowDrop('top')}
            onDragLeave={() => setDropTarget(undefined)}
            onDrop={dropOn(null)}
          >
            Top level (drop here)
          </div>
        )}
      </Section>
    </div>
  );
}
