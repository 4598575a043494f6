// The category tree: drag a category onto another to make it its child (or onto "Top level"),
// or pick its parent from the list (the keyboard way). The API refuses cycles; its message is
// shown as it comes.
import { useState, type DragEvent, type FormEvent } from 'react';
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

const DRAG_TYPE = 'application/x-category-id';

export default function CategoriesPage() {
  const editable = useAccess().can('catalog', 'write');
  const tree = useLoad(categoryTree, []);
  const action = useAction();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [dropTarget, setDropTarget] = useState<number | 'top' | undefined>();
  const flat = flattenTree(tree.data ?? []);
  const parentOptions = flat.map((c) => ({ value: String(c.category.Id), label: c.path }));

  const reparent = (id: number, parentId: number | null) =>
    void action.run(async () => {
      await call(
        client.PATCH('/private/catalog/category/{id}', {
          params: { path: { id } },
          body: { ParentCategoryId: parentId },
        }),
      );
      tree.reload();
    });
  const create = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await call(
        client.POST('/private/catalog/category', {
          body: { Name: name.trim(), ParentCategoryId: parent === '' ? null : Number(parent) },
        }),
      );
      setName('');
      tree.reload();
    });
  };
  const remove = (category: Category) =>
    void action.run(async () => {
      if (!confirm(`Delete category ${category.Name}?`)) return;
      await call(
        client.DELETE('/private/catalog/category/{id}', { params: { path: { id: category.Id } } }),
      );
      tree.reload();
    });

  const dropOn = (target: number | null) => (event: DragEvent) => {
    event.preventDefault();
    setDropTarget(undefined);
    const dragged = Number(event.dataTransfer.getData(DRAG_TYPE));
    if (dragged && dragged !== target) reparent(dragged, target);
  };
  const allowDrop = (target: number | 'top') => (event: DragEvent) => {
    if (!editable) return;
    event.preventDefault();
    setDropTarget(target);
  };

  // A node's parent is where the tree holds it: the tree's nodes do not name their parent.
  const renderNodes = (nodes: Category[], parentId: number | null) => (
    <ul className="tree">
      {nodes.map((category) => (
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
            <span className="name">{category.Name}</span>
            {editable && (
              <>
                <label>
                  <span className="visually-hidden">Parent of {category.Name}</span>
                  <select
                    value={parentId === null ? '' : String(parentId)}
                    onChange={(e) =>
                      reparent(category.Id, e.target.value === '' ? null : Number(e.target.value))
                    }
                  >
                    <option value="">(top level)</option>
                    {parentOptions.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => remove(category)}>
                  Delete {category.Name}
                </button>
              </>
            )}
          </div>
          {(category.CategoryTreeItems?.length ?? 0) > 0 &&
            renderNodes(category.CategoryTreeItems, category.Id)}
        </li>
      ))}
    </ul>
  );

  return (
    <>
      <PageTitle>Categories</PageTitle>
      <ErrorMessage error={tree.error ?? action.error} />
      {editable && (
        <Section title="New category">
          <form onSubmit={create} className="row">
            <Field label="Name" value={name} onChange={setName} required />
            <Select
              label="Parent"
              value={parent}
              onChange={setParent}
              empty="(top level)"
              options={parentOptions}
            />
            <button type="submit" disabled={action.busy}>
              Create category
            </button>
          </form>
        </Section>
      )}
      <Section title="Tree">
        {editable && (
          <p className="muted">
            Drag a category onto another to move it there, or choose its parent from its list.
          </p>
        )}
        {tree.loading && !tree.data && <Loading />}
        {tree.data?.length === 0 && <p>No categories yet.</p>}
        {tree.data && renderNodes(tree.data, null)}
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
    </>
  );
}
