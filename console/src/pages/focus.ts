// Focus after a failed action: the first field the API refused, found once the field errors have
// rendered (focusLater in components.tsx waits for it and never takes the focus back from
// something that took it meanwhile).
import { focusLater } from '../components.tsx';

/** After a failed action: the first field marked invalid inside `scope`, else `fallback`. */
export function focusFailure(
  scope: () => Element | null | undefined,
  fallback: () => Element | null | undefined,
): void {
  // The field errors render with the failure; one frame later they are there or never will be.
  requestAnimationFrame(() =>
    focusLater(() => scope()?.querySelector('[aria-invalid="true"]') ?? fallback()),
  );
}
