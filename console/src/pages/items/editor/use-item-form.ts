// The editor's form state and its two actions: save (POST a new item and open it, or PUT the
// whole item and show what the API kept) and delete. Before saving, the form is checked
// (item-validation.ts); the API's own field errors go next to the same fields. Leaving with
// unsaved changes (a link, Back, closing the tab) asks first (router.ts guardLeaving). After an
// action the focus goes to its result: the "Saved." status, else the first field in error, else
// the error message.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, client } from '../../../api.ts';
import { useSaveAction } from './use-save-action.ts';
import { guardLeaving, navigate } from '../../../router.ts';
import type { Item, PriceType } from '../../../types.ts';
import { lastItemsListPath } from '../items-url.ts';
import { sameForm, type ItemForm, type SetField } from './item-form-model.ts';
import { ITEM_LABELS, validateItemForm } from './item-validation.ts';
import { saveImages, type StagedImage } from './item-images.ts';
import { formFromItem, itemBodyFromForm } from './item-wire-mapping.ts';

export const UNSAVED_QUESTION = 'This item has unsaved changes. Leave without saving them?';

/**
 * Focuses what `find` gives once it is on screen and can take the focus (the page may not show
 * it yet: a render after a call, a fieldset enabled again), trying at each frame for `waitMs`.
 */
export function focusSoon(find: () => HTMLElement | null | undefined, waitMs = 3000): void {
  const deadline = performance.now() + waitMs;
  const attempt = () => {
    const element = find();
    if (element && element.getClientRects().length > 0) {
      element.focus();
      if (document.activeElement === element) return;
    }
    if (performance.now() < deadline) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

export function useItemForm(options: {
  id: number | undefined;
  item: Item | undefined;
  /** The item's images as loaded. */
  images: StagedImage[];
  priceTypes: PriceType[];
  /** The saved item, after each successful PUT. */
  onSaved: (item: Item) => void;
}) {
  const { id, item, priceTypes, onSaved } = options;
  const [form, setForm] = useState(() => formFromItem(item, priceTypes, options.images));
  const [baseline, setBaseline] = useState(form);
  const [saved, setSaved] = useState(false);
  /** The form's own checks (before any call), by field path. */
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const action = useSaveAction(ITEM_LABELS);
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  const dirty = !sameForm(form, baseline);
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  useEffect(() => guardLeaving(() => (dirtyNow.current ? UNSAVED_QUESTION : undefined)), []);

  const clearField = (path: string) => {
    setInvalid((errors) => {
      if (!(path in errors)) return errors;
      const { [path]: _, ...rest } = errors;
      return rest;
    });
    action.clearField(path);
  };
  const set: SetField =
    <K extends keyof ItemForm>(key: K) =>
    (value: ItemForm[K]) => {
      setSaved(false);
      clearField(key);
      setForm((f) => ({ ...f, [key]: value }));
    };
  const fieldError = (path: string): string | undefined => invalid[path] ?? action.fieldError(path);

  /** After a failed save: the first field in error, else the message (once they show). */
  const focusProblem = () =>
    focusSoon(
      () =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        formRef.current?.querySelector<HTMLElement>('.save-problem:has([role="alert"])'),
    );

  const save = (event: FormEvent) => {
    event.preventDefault();
    const problems = validateItemForm(form, priceTypes);
    setInvalid(problems);
    setSaved(false);
    if (Object.keys(problems).length > 0) {
      action.setError(undefined);
      focusProblem();
      return;
    }
    void action
      .run(async () => {
        if (id === undefined) {
          const created = await call(
            client.POST('/private/catalog/item', { body: itemBodyFromForm(form) }),
          );
          await saveImages(created.Id, [], form.images);
          // Saved: nothing is left to lose. The new item's page takes the focus on its heading.
          navigate(`items/${created.Id}`, { force: true });
        } else {
          const updated = await call(
            client.PUT('/private/catalog/item/{id}', {
              params: { path: { id } },
              body: itemBodyFromForm(form),
            }),
          );
          const images = await saveImages(id, baseline.images, form.images);
          const kept = formFromItem(updated, priceTypes, images);
          setForm(kept);
          setBaseline(kept);
          setSaved(true);
          onSaved(updated);
        }
      })
      .then((ok) => {
        if (ok && id !== undefined) focusSoon(() => statusRef.current);
        if (!ok) focusProblem();
      });
  };

  const remove = () =>
    void action.run(async () => {
      if (id === undefined) return;
      if (!confirm(`Delete item ${id}?`)) return;
      await call(client.DELETE('/private/catalog/item/{id}', { params: { path: { id } } }));
      navigate(lastItemsListPath(), { force: true });
    });

  /** The number of problems the form found itself (the banner counts them). */
  const problems = Object.keys(invalid).length;
  const problemMessage =
    problems === 0
      ? undefined
      : problems === 1
        ? Object.values(invalid)[0]
        : 'Some fields need attention; see the messages next to them.';

  return {
    form,
    set,
    saved,
    dirty,
    action,
    save,
    remove,
    fieldError,
    clearField,
    formRef,
    statusRef,
    problemMessage,
  };
}
