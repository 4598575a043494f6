// Add a store or edit one: name, address, description and its position, typed or picked on the
// map (the page passes the map's picks to `pick`). The API accepts stores of one name (a store
// is its Id); before creating or renaming, the name is looked up among the tenant's stores and,
// when another store has it, a warning next to the name offers "Save anyway". An edit sends the
// ETag of the store as fetched (If-Match).
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type RefObject } from 'react';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { focusLater } from '../../components.tsx';
import { ApiFormFrame, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import type { LonLat } from '../../map-geometry.ts';
import { ifMatch } from '../../query.ts';
import { sameName } from '../../same-name.ts';
import type { Store } from '../../types.ts';
import { findNamesake, storeKeys } from './stores-api.ts';

const LABELS = {
  Name: 'Store name',
  Description: 'Store description',
  Address: 'Address',
  Location: 'Position',
  'Location.Latitude': 'Latitude',
  'Location.Longitude': 'Longitude',
};
/** Empty, or not a number: null, and the API names the field. */
const coordinate = v.pipe(
  v.string(),
  v.transform((text) =>
    text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text),
  ),
);
const optionalText = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => text || null),
);
const StoreSchema = v.pipe(
  v.object({
    Name: v.pipe(v.string(), v.trim()),
    Description: optionalText,
    Address: optionalText,
    Latitude: coordinate,
    Longitude: coordinate,
  }),
  v.transform(({ Latitude, Longitude, ...rest }) => ({
    ...rest,
    Location: { Latitude: Latitude as number, Longitude: Longitude as number },
  })),
);
const EMPTY = { Name: '', Description: '', Address: '', Latitude: '', Longitude: '' };

export interface StoreEditing {
  store: Store;
  etag: string | undefined;
}

/** The store form's state: the page gives the map's picks to it and reads its position. */
export function useStoreForm() {
  return useApiForm({
    schema: StoreSchema,
    defaultValues: EMPTY,
    labels: LABELS,
    fieldOf: (path) => (path.startsWith('Location') ? (path.split('.')[1] ?? 'Latitude') : path),
  });
}
export type StoreFormState = ReturnType<typeof useStoreForm>;

/** The form's fields as an existing store fills them. */
export const fieldsOf = (store: Store) => ({
  Name: store.Name,
  Description: store.Description ?? '',
  Address: store.Address ?? '',
  Latitude: String(store.Location.Latitude),
  Longitude: String(store.Location.Longitude),
});

/** The position the form holds, when it is one. */
export function positionOf(state: StoreFormState): LonLat | undefined {
  const lat = Number(state.form.watch('Latitude'));
  const lon = Number(state.form.watch('Longitude'));
  const typed = state.form.watch('Latitude') !== '' && state.form.watch('Longitude') !== '';
  return typed && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** Sets the position picked on the map (5 decimals, about a metre). */
export function pickPosition(state: StoreFormState, { lat, lon }: LonLat) {
  state.form.setValue('Latitude', String(lat));
  state.form.setValue('Longitude', String(lon));
  state.form.clearErrors(['Latitude', 'Longitude']);
}

export function StoreForm(props: {
  state: StoreFormState;
  editing: StoreEditing | undefined;
  /** The stores the page loaded (every one, unless it has MAP_LIMIT). */
  stores: Store[] | undefined;
  onSaved: (store: Store, created: boolean) => void;
  onCancel: () => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
  touch: boolean;
}) {
  const { state, editing, stores } = props;
  const queries = useQueryClient();
  // The other store whose name the typed one repeats, once the person was told; and the name
  // they chose to save anyway (not warned of again while the form keeps it).
  const [namesake, setNamesake] = useState<{ typed: string; existing: string }>();
  const [accepted, setAccepted] = useState<string>();
  const typed = state.form.watch('Name');
  const warned = namesake?.typed === typed ? namesake.existing : undefined;
  const warningId = useId();
  const anyway = useRef<HTMLButtonElement>(null);

  const save = (confirmed: boolean) =>
    state.submitWith(async (body) => {
      setNamesake(undefined);
      const name = body.Name;
      if (confirmed) setAccepted(name);
      const renaming = !editing || !sameName(name, editing.store.Name);
      if (!confirmed && renaming && name !== '' && !(accepted && sameName(accepted, name))) {
        const asked = state.form.getValues('Name');
        const existing = await findNamesake(stores, name, editing?.store.Id);
        if (state.form.getValues('Name') !== asked) return;
        if (existing) {
          setNamesake({ typed: asked, existing: existing.Name.trim() });
          focusLater(() => anyway.current);
          return;
        }
      }
      const saved = editing
        ? await call(
            client.PUT('/management/company/store/{id}', {
              params: { path: { id: editing.store.Id }, header: ifMatch(editing.etag) },
              body: { ...body, Id: editing.store.Id },
            }),
          )
        : await call(client.POST('/management/company/store', { body }));
      state.form.reset(EMPTY);
      setAccepted(undefined);
      await queries.invalidateQueries({ queryKey: storeKeys.all });
      props.onSaved(saved, !editing);
    });

  return (
    <ApiFormFrame api={state} onSubmit={save(false)} banner={false}>
      <TextField name="Name" label="Store name" />
      {warned !== undefined && (
        <div className="name-warning">
          <p id={warningId}>
            A store named “{warned}” already exists. Stores are told apart by name on the map and in
            device lists; choose another name, or save it anyway.
          </p>
          <button
            type="button"
            ref={anyway}
            aria-describedby={warningId}
            disabled={state.busy}
            onClick={() => void save(true)()}
          >
            Save anyway
          </button>
        </div>
      )}
      <TextField name="Address" label="Address" />
      <TextField name="Description" label="Store description" />
      <p className="muted pick-note">
        {props.touch ? 'Tap' : 'Click'} the map to set the position, or type it (decimal degrees,
        like 52.52 and 13.405).
      </p>
      <div className="coordinates">
        <TextField name="Latitude" label="Latitude" type="number" step="any" />
        <TextField name="Longitude" label="Longitude" type="number" step="any" />
      </div>
      <SubmitButton>{editing ? 'Save store' : 'Create store'}</SubmitButton>
      {editing && (
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </ApiFormFrame>
  );
}
