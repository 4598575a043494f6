// Small building blocks every page uses: labelled fields (controlled; a form of the form hook
// uses forms/fields.tsx), the error banner, the pager and paged tables (lists of cards at phone
// width), the progress bar, and moving the focus once an action's result is on screen. Server
// state is TanStack Query's (query.ts), forms react-hook-form's (forms/).
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  type ReactNode,
  type Ref,
  type RefObject,
  type SelectHTMLAttributes,
} from 'react';
import { explainFailure } from './error-messages.ts';

/** A failure in plain words (error-messages.ts). */
export function errorText(error: unknown): string {
  return explainFailure(error).message;
}

/** The banner: one sentence in plain words (a string is shown as is). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null || error === '') return null;
  return (
    <p className="error" role="alert">
      {typeof error === 'string' ? error : errorText(error)}
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
  inputMode?: 'decimal' | 'numeric' | 'text';
  /** The field's error in plain words, shown under it (useAction().fieldError). */
  error?: string;
}

/** A field's error under it, tied to the control by aria-describedby. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="field-error">
      {error}
    </p>
  );
}

export function Field(props: FieldProps) {
  const { label, value, onChange, type = 'text', multiline, error, ...rest } = props;
  const id = useId();
  const errorId = `${id}-error`;
  const described = error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...described}
          {...rest}
        />
      ) : (
        <input
          id={id}
          type={type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...described}
          {...rest}
        />
      )}
      <FieldError id={errorId} error={error} />
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
  error?: string;
}

export function Select({ label, value, onChange, options, disabled, empty, error }: SelectProps) {
  return (
    <SelectBox
      label={label}
      options={options}
      empty={empty}
      error={error}
      control={{ value, onChange: (e) => onChange(e.target.value), disabled }}
    />
  );
}

/**
 * A labelled select with its error under it. `control` is what makes it a field: a value and its
 * onChange (Select), or a form's registration (forms/fields.tsx).
 */
export function SelectBox(props: {
  label: string;
  options: { value: string; label: string }[];
  empty?: string | undefined;
  error?: string | undefined;
  control: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> };
}) {
  const { label, options, empty, error, control } = props;
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        {...control}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        <SelectOptions options={options} empty={empty} />
      </select>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A select's options: the empty choice first when `empty` names it. */
export function SelectOptions(props: {
  options: { value: string; label: string }[];
  empty?: string | undefined;
}) {
  return (
    <>
      {props.empty !== undefined && <option value="">{props.empty}</option>}
      {props.options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
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
 *
 * At phone width the table is a list of cards (class `cards`, styles.css): give each `<td>` the
 * header of its column as `data-label` (`<td data-label="Name">`), shown before the value. A
 * cell without one (e.g. the row's buttons) takes the card's whole width with no label; a
 * `<th scope="row">` is the card's title.
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
    <table className="cards">
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

/** What `focusLater` moves the focus to: a CSS selector, a ref, or a function finding it. */
export type FocusTarget =
  string | RefObject<HTMLElement | null> | (() => Element | null | undefined);

/** How long `focusLater` waits for its element to be on screen (a reload, a lazy page). */
const FOCUS_WAIT_MS = 5000;

function findTarget(target: FocusTarget): HTMLElement | null {
  if (typeof target === 'string') return document.querySelector<HTMLElement>(target);
  if (typeof target === 'function') {
    const found = target();
    return found instanceof HTMLElement ? found : null;
  }
  return target.current;
}

/** On screen: attached and not hidden (an element under display: none has no boxes). */
function canTakeFocus(element: HTMLElement): boolean {
  return element.isConnected && element.getClientRects().length > 0;
}

/**
 * Moves the keyboard focus to `target` once it is on screen: call it when an action starts or
 * succeeds, before the page shows its result (the new row after a reload, the saved form's
 * heading, a status message, the next page's heading). It looks again at each frame for up to
 * five seconds, so the element may not exist yet. An element that is not focusable by itself
 * (a heading, a row, a paragraph) gets `tabindex="-1"`. It gives up when the person has moved
 * the focus elsewhere meanwhile (anywhere but the body and the element that had it at the
 * call), so it never pulls the focus back from someone who moved on. The first element that
 * matches wins: a selector that also matches something already there before the result (the
 * row being edited, the previous page's heading) should be made unique to the new one.
 *
 *     focusLater(`[data-row="${created.Id}"]`);   // the new row (give it tabIndex={-1})
 *     focusLater('#content h1');                  // the page's heading
 *     focusLater(statusRef);                      // a ref from useRef or useFocusAfter
 */
export function focusLater(target: FocusTarget, waitMs = FOCUS_WAIT_MS): void {
  const startedFrom = document.activeElement;
  const deadline = performance.now() + waitMs;
  const attempt = () => {
    const active = document.activeElement;
    const movedOn = active !== null && active !== document.body && active !== startedFrom;
    const element = findTarget(target);
    // Done when the focus is there already (a page's heading takes it on mount), and not ours
    // to take when the person moved it elsewhere meanwhile.
    if ((element && element === active) || movedOn) return;
    if (element && canTakeFocus(element)) {
      if (!element.matches('a[href], button, input, select, textarea, [tabindex]'))
        element.tabIndex = -1;
      element.focus();
      if (document.activeElement === element) return;
    }
    if (performance.now() < deadline) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/**
 * A ref for the element that should take the focus after an action, and the function that
 * moves it there (with `focusLater`, so the element may appear after a reload):
 *
 *     const [savedRef, focusSaved] = useFocusAfter<HTMLParagraphElement>();
 *     const save = () => void action.run(async () => { await put(); focusSaved(); });
 *     …
 *     {saved && <p ref={savedRef} role="status">Saved.</p>}
 */
export function useFocusAfter<T extends HTMLElement = HTMLElement>(): [
  RefObject<T | null>,
  () => void,
] {
  const ref = useRef<T>(null);
  const focus = useCallback(() => focusLater(ref), []);
  return [ref, focus];
}
