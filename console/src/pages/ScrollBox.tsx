// A box that scrolls sideways when a table is wider than the screen, so the page itself never
// does. It is a labelled region that takes the focus, so keyboard users can scroll it too.
import type { ReactNode } from 'react';
import './scroll-box.css';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
