// Focus after an action, once what the action produced has rendered (a new row after the list
// reloaded, a status message, the first field the API refused): looked for on each frame for a
// few seconds, then given up (the focus stays where it is). Given up too when the focus has moved
// on meanwhile (the user, or something that appeared and took it, such as a secret's notice):
// a late focus never takes it back.
const WAIT_MS = 5000;

export function focusWhenShown(find: () => Element | null | undefined): void {
  const started = performance.now();
  const before = document.activeElement;
  const attempt = () => {
    const now = document.activeElement;
    if (now !== before && now !== document.body && now !== null) return;
    const element = find();
    if (element instanceof HTMLElement) {
      element.focus();
      // Not focusable yet (still hidden, or disabled while busy): try again on the next frame.
      if (document.activeElement === element) return;
    }
    if (performance.now() - started < WAIT_MS) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** After a failed action: the first field marked invalid inside `scope`, else `fallback`. */
export function focusFailure(
  scope: () => Element | null | undefined,
  fallback: () => Element | null | undefined,
): void {
  // The field errors render with the failure; one frame later they are there or never will be.
  requestAnimationFrame(() =>
    focusWhenShown(() => scope()?.querySelector('[aria-invalid="true"]') ?? fallback()),
  );
}
