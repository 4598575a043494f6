// Small building blocks every page uses: loading data, running an action with its busy state
// and error, labelled fields, the error banner, the pager and paged tables, the progress bar.
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Loads data when `deps` change; `reload` loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const [version, setVersion] = useState(0);
  const stableLoad = useCallback(load, deps);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    stableLoad().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [stableLoad, version]);
  return { ...state, reload: () => setVersion((v) => v + 1) };
}

/** Runs an async action; `busy` while it runs, `error` when it failed (shown by the page). */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, setError };
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  required?: boolean;
  disabled?: boolean;
  multiline?: boolean;
  step?: string;
  name?: string;
}

export function Field({ label, value, onChange, type = 'text', multiline, ...rest }: FieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
      ) : (
        <input
          id={id}
          type={type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      )}
    </div>
  );
}

interface SelectProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  disabled?: boolean;
  /** Text of the empty choice; without it there is none. */
  empty?: string;
}

export function Select({ label, value, onChange, options, disabled, empty }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Pager(props: {
  skip: number;
  take: number;
  total: number;
  onChange: (skip: number) => void;
  label: string;
}) {
  const { skip, take, total, onChange, label } = props;
  const page = Math.floor(skip / take) + 1;
  const pages = Math.max(1, Math.ceil(total / take));
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button
        type="button"
        disabled={skip === 0}
        onClick={() => onChange(Math.max(0, skip - take))}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pages} ({total} in all)
      </span>
      <button type="button" disabled={skip + take >= total} onClick={() => onChange(skip + take)}>
        Next
      </button>
    </nav>
  );
}

/**
 * One page of a list: its table (caption with the total, column headers, the page's rows) and
 * the pager under it. `wrap` puts the table inside something (a form for rows edited in place).
 */
export function PagedTable(props: {
  caption: string;
  total: number;
  headers: string[];
  children: ReactNode;
  skip: number;
  take: number;
  onPage: (skip: number) => void;
  wrap?: (table: ReactNode) => ReactNode;
}) {
  const { caption, total, headers, children, skip, take, onPage, wrap = (t) => t } = props;
  const table = (
    <table>
      <caption>
        {caption} ({total})
      </caption>
      <thead>
        <tr>
          {headers.map((header) => (
            <th scope="col" key={header}>
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return (
    <>
      {wrap(table)}
      <Pager label={caption} skip={skip} take={take} total={total} onChange={onPage} />
    </>
  );
}

export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div className="progress">
      <progress max={1} value={value} aria-label={label} />
      <span>{Math.round(value * 100)}%</span>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Focuses the page's heading on navigation, so keyboard and screen-reader users land on it. */
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}
