// The editor's form state and its two actions: save (POST a new item and open it, or PUT the
// whole item and show what the API kept) and delete.
import { useState, type FormEvent } from 'react';
import { call, client } from '../../api.ts';
import { useAction } from '../../components.tsx';
import { navigate } from '../../router.ts';
import type { Item } from '../../types.ts';
import type { ItemForm, SetField } from './item-form-model.ts';
import { formFromItem, itemBodyFromForm } from './item-wire-mapping.ts';

export function useItemForm(id: number | undefined, item: Item | undefined) {
  const [form, setForm] = useState(() => formFromItem(item));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const set: SetField =
    <K extends keyof ItemForm>(key: K) =>
    (value: ItemForm[K]) => {
      setSaved(false);
      setForm((f) => ({ ...f, [key]: value }));
    };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      if (id === undefined) {
        const created = await call(
          client.POST('/private/catalog/item', { body: itemBodyFromForm(form) }),
        );
        navigate(`items/${created.Id}`);
      } else {
        const updated = await call(
          client.PUT('/private/catalog/item/{id}', {
            params: { path: { id } },
            body: itemBodyFromForm(form),
          }),
        );
        setForm(formFromItem(updated));
        setSaved(true);
      }
    });
  };
  const remove = () =>
    void action.run(async () => {
      if (!confirm(`Delete item ${id}?`)) return;
      if (id === undefined) return;
      await call(client.DELETE('/private/catalog/item/{id}', { params: { path: { id } } }));
      navigate('items');
    });

  return { form, set, saved, action, save, remove };
}
