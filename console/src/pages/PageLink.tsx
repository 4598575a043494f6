// A link to another page of the console: a real link (open in a new tab works), followed without
// a reload when clicked plainly.
import type { ReactNode } from 'react';
import { BASE, navigate } from '../router.ts';

export function PageLink(props: { to: string; children: ReactNode; current?: boolean }) {
  const { to, children, current } = props;
  return (
    <a
      href={BASE + to}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
