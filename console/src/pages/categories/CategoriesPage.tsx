// The category tree: create, edit (name and descriptions), delete; move a category by dragging
// it onto another (or onto "Top level"), or, with the keyboard, by choosing its new parent in its
// Parent list and pressing Move. Refusals (a cycle, a duplicate name, a category that still has
// items, with a link to them) in plain words. Focus after an action: the moved, created or saved
// category, the tree after a delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type DragEvent } from 'react';
import { ApiFailure, call, client } from '../../api.ts';
import { flattenTree } from '../../catalog.ts';
import { errorText, Loading, PageTitle, Section } from '../../components.tsx';
import { useAccess } from '../../session.tsx';
import type { Category } from '../../types.ts';
import { PageLink } from '../PageLink.tsx';
import { quoted, usePendingFocus } from '../pending-focus.ts';
import { loadTree, placesOf, treeKey } from './categories-api.ts';
import './categories.css';
import { CategoryCreate } from './CategoryCreate.tsx';
import { CategoryEdit } from './CategoryEdit.tsx';
import { CategoryTree, DRAG_TYPE } from './CategoryTree.tsx';

/** Why deleting a category was refused; with its items' link when it still has items. */
interface Refusal {
  category: Category;
  message: string;
  hasItems: boolean;
}

export default function CategoriesPage() {
  const access = useAccess();
  const editable = access.can('catalog', 'write');
  const queries = useQueryClient();
  const tree = useQuery({ queryKey: treeKey, queryFn: loadTree });
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<number>();
  const [editing, setEditing] = useState<number>();
  const [moveFailure, setMoveFailure] = useState<{ id: number; message: string }>();
  const [refusal, setRefusal] = useState<Refusal>();
  const [clearSignal, setClearSignal] = useState(0);
  const [dropOver, setDropOver] = useState(false);
  const page = useRef<HTMLDivElement>(null);
  const treeRegion = useRef<HTMLDivElement>(null);
  const focusLater = usePendingFocus(tree.data, page);

  const flat = useMemo(() => flattenTree(tree.data ?? []), [tree.data]);
  const places = useMemo(() => placesOf(tree.data ?? []), [tree.data]);
  const parentOptions = useMemo(
    () => flat.map((c) => ({ value: String(c.category.Id), label: c.path })),
    [flat],
  );
  const pathOf = (id: number | null) => (id === null ? 'the top level' : places.get(id)?.path);
  const reload = () => queries.invalidateQueries({ queryKey: treeKey });
  /** One message at a time: a new action forgets the others' failures. */
  const startAction = () => {
    setStatus('');
    setMoveFailure(undefined);
    setRefusal(undefined);
    setClearSignal((n) => n + 1);
  };

  const move = useMutation({
    mutationFn: ({ category, parentId }: { category: Category; parentId: number | null }) =>
      call(
        client.PATCH('/private/catalog/category/{id}', {
          params: { path: { id: category.Id } },
          body: { ParentCategoryId: parentId },
        }),
      ),
    onSuccess: async (_, { category, parentId }) => {
      setStatus(`Moved “${category.Name}” to ${pathOf(parentId) ?? 'its new parent'}.`);
      setOpen(category.Id);
      // The moved category is mounted anew under its new parent: its name takes the focus.
      focusLater(`[data-node=${quoted(category.Id)}]`, { afterReload: true, fallback: treeRegion });
      await reload();
    },
    onError: (error, { category }) =>
      setMoveFailure({ id: category.Id, message: errorText(error) }),
  });
  const reparent = (category: Category, parentId: number | null) => {
    startAction();
    move.mutate({ category, parentId });
  };
  const remove = (category: Category) => {
    startAction();
    if (!confirm(`Delete category “${category.Name}”?`)) return;
    call(
      client.DELETE('/private/catalog/category/{id}', { params: { path: { id: category.Id } } }),
    ).then(
      async () => {
        setStatus(`Deleted category “${category.Name}”.`);
        if (editing === category.Id) setEditing(undefined);
        focusLater('[data-tree]', { afterReload: true, fallback: treeRegion });
        await reload();
      },
      (error: unknown) => {
        const hasItems = error instanceof ApiFailure && error.body.Code === 'CategoryHasItems';
        setRefusal({ category, message: errorText(error), hasItems });
      },
    );
  };
  const created = async (category: { Id: number; Name: string }) => {
    setStatus(`Created category “${category.Name}”.`);
    setOpen(category.Id);
    focusLater(`[data-node=${quoted(category.Id)}]`, { afterReload: true, fallback: treeRegion });
    await reload();
  };
  const startEditing = (category: Category) => {
    startAction();
    setEditing(category.Id);
    focusLater('[data-editing] input');
  };
  const stopEditing = (id: number) => {
    setEditing(undefined);
    focusLater(`[data-edit=${quoted(id)}]`);
  };
  const saved = async (category: { Id: number; Name: string }) => {
    setEditing(undefined);
    setStatus(`Saved category “${category.Name}”.`);
    focusLater(`[data-edit=${quoted(category.Id)}]`, { afterReload: true, fallback: treeRegion });
    await reload();
  };

  const dropOn = (target: number | null) => (event: DragEvent) => {
    event.preventDefault();
    setDropOver(false);
    const dragged = Number(event.dataTransfer.getData(DRAG_TYPE));
    const category = flat.find((c) => c.category.Id === dragged)?.category;
    if (category && dragged !== target) reparent(category, target);
  };

  return (
    <div ref={page} className="categories-page">
      <PageTitle>Categories</PageTitle>
      {editable && (
        <CategoryCreate parents={parentOptions} onCreated={created} clearSignal={clearSignal} />
      )}
      <Section title="Tree">
        {editable && (
          <p className="muted">
            Choose a category to move, edit or delete it. Drag a category onto another to move it
            there; with the keyboard, choose its new parent in its Parent list, then press Move.
          </p>
        )}
        <p role="status" className="status">
          {status}
        </p>
        {(tree.error || move.error || refusal) && (
          <div className="error" role="alert">
            <p>{refusal?.message ?? errorText(tree.error ?? move.error)}</p>
            {refusal?.hasItems && (
              <p>
                <PageLink to={`items?category=${refusal.category.Id}`}>
                  Show the items of “{refusal.category.Name}”
                </PageLink>
              </p>
            )}
          </div>
        )}
        {tree.isPending && <Loading />}
        <div
          ref={treeRegion}
          data-tree=""
          tabIndex={-1}
          role="group"
          aria-label="Category tree"
          className="tree-region"
        >
          {tree.data?.length === 0 && <p>No categories yet.</p>}
          {tree.data && (
            <CategoryTree
              nodes={tree.data}
              places={places}
              parentOptions={parentOptions}
              editable={editable}
              history={access.can('history', 'read')}
              open={open}
              onOpen={setOpen}
              moveFailure={moveFailure}
              onChooseParent={(id) => {
                if (moveFailure?.id === id) setMoveFailure(undefined);
              }}
              busy={move.isPending}
              actions={{ move: reparent, edit: startEditing, remove }}
              editor={(category) =>
                editing === category.Id && (
                  <CategoryEdit
                    category={category}
                    onSaved={saved}
                    onCancel={() => stopEditing(category.Id)}
                  />
                )
              }
              dropOn={dropOn}
            />
          )}
        </div>
        {editable && (
          <div
            className={dropOver ? 'dropzone over' : 'dropzone'}
            onDragOver={(event) => {
              event.preventDefault();
              setDropOver(true);
            }}
            onDragLeave={() => setDropOver(false)}
            onDrop={dropOn(null)}
          >
            Top level (drop here)
          </div>
        )}
      </Section>
    </div>
  );
}
