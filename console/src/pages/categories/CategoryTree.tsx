// The tree: each category's name (a button: it opens the category's controls) nested under its
// parent. The open category shows its Parent list with Move (choosing alone sends nothing), Edit
// and Delete; the others show only their names, so the tree stays short on a phone. A category
// dragged onto another becomes its child (the page handles the drop).
import { useState, type DragEvent, type ReactNode } from 'react';
import type { Category } from '../../types.ts';
import { PageLink } from '../PageLink.tsx';
import { subtreeIds, TOP, type Place } from './categories-api.ts';

const DRAG_TYPE = 'application/x-category-id';

export interface TreeActions {
  move: (category: Category, parentId: number | null) => void;
  edit: (category: Category) => void;
  remove: (category: Category) => void;
}

export function CategoryTree(props: {
  nodes: Category[];
  places: Map<number, Place>;
  parentOptions: { value: string; label: string }[];
  editable: boolean;
  /** Whether each category links to its history (a member who may read it). */
  history: boolean;
  /** The category whose controls are shown. */
  open: number | undefined;
  onOpen: (id: number | undefined) => void;
  /** The category the last move failed for, with the failure (under its list). */
  moveFailure: { id: number; message: string } | undefined;
  onChooseParent: (id: number) => void;
  busy: boolean;
  actions: TreeActions;
  /** The edit form, under the category being edited. */
  editor: (category: Category) => ReactNode;
  dropOn: (target: number | null) => (event: DragEvent) => void;
}) {
  const { places, parentOptions, editable, open, moveFailure, actions } = props;
  /** Parents chosen in the open list and not moved to yet. */
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [dropTarget, setDropTarget] = useState<number>();

  const render = (nodes: Category[]): ReactNode => (
    <ul className="tree">
      {nodes.map((category) => {
        const place = places.get(category.Id);
        const current = place?.parentId == null ? TOP : String(place.parentId);
        const choice = chosen[category.Id] ?? current;
        const failed = moveFailure?.id === category.Id ? moveFailure.message : undefined;
        const errorId = `move-error-${category.Id}`;
        const listId = `parent-of-${category.Id}`;
        const isOpen = open === category.Id;
        const own = isOpen ? subtreeIds(category) : new Set<number>();
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
              onDragOver={(event) => {
                if (!editable) return;
                event.preventDefault();
                setDropTarget(category.Id);
              }}
              onDragLeave={() => setDropTarget(undefined)}
              onDrop={(event) => {
                setDropTarget(undefined);
                props.dropOn(category.Id)(event);
              }}
            >
              {editable ? (
                <button
                  type="button"
                  className="name link"
                  data-node={category.Id}
                  aria-expanded={isOpen}
                  onClick={() => props.onOpen(isOpen ? undefined : category.Id)}
                >
                  {category.Name}
                </button>
              ) : (
                <span className="name" tabIndex={-1} data-node={category.Id}>
                  {category.Name}
                </span>
              )}
              {props.history && (!editable || isOpen) && (
                <PageLink to={`categories/${category.Id}/history`}>
                  History<span className="visually-hidden"> of {category.Name}</span>
                </PageLink>
              )}
              {editable && isOpen && (
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
                      onChange={(e) => {
                        const value = e.target.value;
                        setChosen((all) => ({ ...all, [category.Id]: value }));
                        props.onChooseParent(category.Id);
                      }}
                    >
                      <option value={TOP}>(top level)</option>
                      {parentOptions
                        .filter((o) => !own.has(Number(o.value)))
                        .map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                    </select>
                  </span>
                  <button
                    type="button"
                    disabled={choice === current || props.busy}
                    onClick={() => {
                      setChosen(({ [category.Id]: _moved, ...others }) => others);
                      actions.move(category, choice === TOP ? null : Number(choice));
                    }}
                  >
                    Move<span className="visually-hidden"> {category.Name}</span>
                  </button>
                  <button
                    type="button"
                    data-edit={category.Id}
                    onClick={() => actions.edit(category)}
                  >
                    Edit<span className="visually-hidden"> {category.Name}</span>
                  </button>
                  <button type="button" className="danger" onClick={() => actions.remove(category)}>
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
            {props.editor(category)}
            {(category.CategoryTreeItems?.length ?? 0) > 0 && render(category.CategoryTreeItems)}
          </li>
        );
      })}
    </ul>
  );
  return <>{render(props.nodes)}</>;
}

export { DRAG_TYPE };
