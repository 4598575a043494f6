// The fields of a form wired by useApiForm: each registered with react-hook-form by its name,
// labelled, its error under it (tied by aria-describedby, marked aria-invalid). `ApiFormFrame`
// is the form element with its banner; the fields inside find the form through its context.
import { useId, type ReactNode } from 'react';
import { FormProvider, get, useFormContext, type FieldValues } from 'react-hook-form';
import { ErrorMessage, FieldError, SelectBox } from '../components.tsx';
import type { ApiForm } from './use-api-form.ts';

/** The form element of `api` with its banner above the fields. */
export function ApiFormFrame(props: {
  api: ApiForm;
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  className?: string;
  label?: string;
  children: ReactNode;
  /** Where the banner stands: above the form (default) or nowhere (the page shows it). */
  banner?: boolean;
}) {
  const { api, onSubmit, className, label, children, banner = true } = props;
  return (
    <FormProvider {...(api.form as unknown as ReturnType<typeof useFormContext<FieldValues>>)}>
      {banner && <FormBanner api={api} />}
      <form
        ref={api.formRef}
        className={className}
        aria-label={label}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** The form's failure in a sentence; it takes the focus when no field is in error. */
export function FormBanner({ api }: { api: ApiForm }) {
  return (
    <div className="action-result" tabIndex={-1} ref={api.bannerRef}>
      <ErrorMessage error={api.message} />
    </div>
  );
}

/** The field's error message (react-hook-form's, from the schema or the API). */
function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext();
  const error: { message?: string } | undefined = get(formState.errors, name);
  return error?.message || undefined;
}

export function TextField(props: {
  name: string;
  label: string;
  type?: string;
  required?: boolean;
  multiline?: boolean;
  inputMode?: 'decimal' | 'numeric' | 'text';
  step?: string;
  autoComplete?: string;
  describedBy?: string;
}) {
  const { name, label, type = 'text', multiline, describedBy, ...rest } = props;
  const { register } = useFormContext();
  const id = useId();
  const error = useFieldError(name);
  const errorId = `${id}-error`;
  const described = [error ? errorId : '', describedBy ?? ''].filter(Boolean).join(' ');
  const aria = {
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} {...register(name)} {...aria} {...rest} />
      ) : (
        <input id={id} type={type} {...register(name)} {...aria} {...rest} />
      )}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function SelectField(props: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  /** Text of the empty choice; without it there is none. */
  empty?: string;
}) {
  const { register } = useFormContext();
  return (
    <SelectBox
      label={props.label}
      options={props.options}
      empty={props.empty}
      error={useFieldError(props.name)}
      control={register(props.name)}
    />
  );
}

/** Checkboxes of one field holding the chosen values (an array); its error under them. */
export function CheckboxGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
}) {
  const { name, legend, options } = props;
  const { register } = useFormContext();
  const errorId = `${useId()}-error`;
  const error = useFieldError(name);
  return (
    <fieldset className="checks" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="checkbox"
            value={option.value}
            aria-invalid={error ? true : undefined}
            {...register(name)}
          />
          {option.label}
        </label>
      ))}
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/** The form's submit button, disabled while it sends. */
export function SubmitButton({ children }: { children: ReactNode }) {
  const { formState } = useFormContext();
  return (
    <button type="submit" disabled={formState.isSubmitting}>
      {children}
    </button>
  );
}
