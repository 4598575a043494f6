// A table that scrolls inside its own box when it is wider than the page (never the page); the
// box takes the keyboard focus so that it can be scrolled without a pointer. For PagedTable's wrap.
import type { ReactNode } from 'react';

export const scrolling = (label: string) => (table: ReactNode) => (
  <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
    {table}
  </div>
);
