// Register a physical device (its id, description and store) or edit one (description and
// store); an edit sends the ETag of the device as fetched (If-Match).
import { useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { call, client } from '../../api.ts';
import { ApiFormFrame, SelectField, SubmitButton, TextField } from '../../forms/fields.tsx';
import { useApiForm } from '../../forms/use-api-form.ts';
import { ifMatch } from '../../query.ts';
import type { PhysicalDevice, Store } from '../../types.ts';
import { storeKeys } from './stores-api.ts';

const LABELS = { DeviceId: 'Device id', Description: 'Device description', StoreId: 'Store' };
const DeviceSchema = v.object({
  DeviceId: v.pipe(v.string(), v.trim()),
  Description: v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => text || null),
  ),
  StoreId: v.pipe(
    v.string(),
    v.transform((id) => (id === '' ? null : Number(id))),
  ),
});
const EMPTY = { DeviceId: '', Description: '', StoreId: '' };

export interface DeviceEditing {
  device: PhysicalDevice;
  etag: string | undefined;
}

export function useDeviceForm() {
  return useApiForm({ schema: DeviceSchema, defaultValues: EMPTY, labels: LABELS });
}
export type DeviceFormState = ReturnType<typeof useDeviceForm>;

export const deviceFieldsOf = (device: PhysicalDevice) => ({
  DeviceId: device.DeviceId,
  Description: device.Description ?? '',
  StoreId: device.StoreId === null ? '' : String(device.StoreId),
});

export function DeviceForm(props: {
  state: DeviceFormState;
  editing: DeviceEditing | undefined;
  stores: Store[];
  onSaved: (text: string) => void;
  onCancel: () => void;
}) {
  const { state, editing, stores } = props;
  const queries = useQueryClient();
  const storeName = (id: number | null) => stores.find((s) => s.Id === id)?.Name;
  const save = state.submitWith(async (values) => {
    const body = { ...values, DeviceId: editing ? editing.device.DeviceId : values.DeviceId };
    if (editing)
      await call(
        client.PUT('/management/company/physicaldevices/{physicalDeviceId}', {
          params: {
            path: { physicalDeviceId: editing.device.DeviceId },
            header: ifMatch(editing.etag),
          },
          body,
        }),
      );
    else await call(client.POST('/management/company/physicaldevices', { body }));
    const where = body.StoreId === null ? 'in no store' : `in “${storeName(body.StoreId)}”`;
    // A new device's store stays chosen for the next one.
    state.form.reset({ ...EMPTY, StoreId: editing ? '' : state.form.getValues('StoreId') });
    await queries.invalidateQueries({ queryKey: storeKeys.all });
    props.onSaved(
      editing
        ? `Device “${body.DeviceId}” saved, ${where}.`
        : `Device “${body.DeviceId}” registered ${where}.`,
    );
  });
  return (
    <ApiFormFrame api={state} onSubmit={save} className="row" banner={false}>
      {!editing && <TextField name="DeviceId" label="Device id" />}
      <TextField name="Description" label="Device description" />
      <SelectField
        name="StoreId"
        label="Store"
        empty="(no store)"
        options={stores.map((s) => ({ value: String(s.Id), label: s.Name }))}
      />
      <div className="form-buttons">
        <SubmitButton>{editing ? 'Save device' : 'Register device'}</SubmitButton>
        {editing && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </ApiFormFrame>
  );
}
