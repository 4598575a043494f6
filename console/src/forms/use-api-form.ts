// Forms through react-hook-form with a valibot schema: the schema shapes what is typed into
// what the API takes (trimmed text, numbers, null for an empty optional field); the API's answer
// is the one set of rules and words (error-messages.ts), so a refusal's field errors go under
// their fields (`setError`) and leave when the field changes, and its sentence is the form's
// banner, gone once no field error is left. After a refusal the focus goes to the first field in
// error, else to the banner. Every create and edit form of the console is wired through this one
// hook, so none repeats it.
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useRef, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { GenericSchema } from 'valibot';
import { focusLater } from '../components.tsx';
import { explainFailure, type FieldLabels } from '../error-messages.ts';

export interface ApiFormOptions<Input extends FieldValues, Output extends FieldValues> {
  schema: GenericSchema<Input, Output>;
  defaultValues: DefaultValues<Input>;
  /** The API's field path → the label the person sees (the messages name it). */
  labels?: FieldLabels;
  /** The form's field an API field path belongs to, when their names differ. */
  fieldOf?: (apiPath: string) => string;
}

/**
 * A form of `schema`'s fields; `submitWith(send)` is its onSubmit: `send` gets the schema's
 * output and throws the API's failure, which the form then shows. It answers whether it sent.
 */
/** How long a failure that names fields waits for one of them to show its error. */
const FIELD_ERROR_WAIT_MS = 1000;

export function useApiForm<Input extends FieldValues, Output extends FieldValues>(
  options: ApiFormOptions<Input, Output>,
) {
  const { schema, defaultValues, labels = {}, fieldOf = (path) => path } = options;
  const form = useForm<Input, unknown, Output>({
    resolver: valibotResolver<Input, unknown, Output>(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
  });
  const [failure, setFailure] = useState<{ message: string; fields: string[] }>();
  const formRef = useRef<HTMLFormElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);

  /**
   * The focus goes to the first field in error, or to the banner when the failure names none.
   * A field's error can render a frame after the banner (under load, seen in a browser test):
   * the banner is taken instead of a named field only when no field showed its error within
   * FIELD_ERROR_WAIT_MS (a field the form does not show).
   */
  const focusProblem = (namesFields: boolean) => {
    const since = performance.now();
    requestAnimationFrame(() =>
      focusLater(
        () =>
          formRef.current?.querySelector('[aria-invalid="true"]') ??
          (!namesFields || performance.now() - since > FIELD_ERROR_WAIT_MS
            ? bannerRef.current
            : null),
      ),
    );
  };

  /** Shows a failure: its field errors under their fields, its sentence in the banner. */
  const showFailure = (error: unknown) => {
    const explained = explainFailure(error, labels);
    const fields = Object.entries(explained.fields).map(([path, message]) => {
      const name = fieldOf(path);
      form.setError(name as Path<Input>, { type: 'server', message });
      return name;
    });
    setFailure({ message: explained.message, fields });
    focusProblem(fields.length > 0);
  };

  const submitWith = (send: (values: Output) => Promise<unknown>) =>
    form.handleSubmit(async (values) => {
      setFailure(undefined);
      try {
        await send(values);
      } catch (error) {
        showFailure(error);
      }
    });

  // The banner speaks of the field errors while one is left.
  const { errors } = form.formState;
  const open = failure?.fields.some((name) => form.getFieldState(name as Path<Input>).error);
  const message = failure && (failure.fields.length === 0 || open) ? failure.message : undefined;
  void errors;

  return {
    form,
    formRef,
    bannerRef,
    submitWith,
    showFailure,
    /** The banner's sentence (undefined when there is nothing to say). */
    message,
    /** Forgets the failure shown: its banner and its field errors. */
    clearFailure: () => {
      setFailure(undefined);
      form.clearErrors();
    },
    busy: form.formState.isSubmitting,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form's fields
export type ApiForm = ReturnType<typeof useApiForm<any, any>>;
