// The countries' names on the stores' map, written where each country is, at the size they
// are read (not scaled with the map); a name is written only when its country is drawn wider
// than the name, and never over a larger country's name.
import type { Size, View } from './map-geometry.ts';
import type { PlaceLabel } from './world.ts';

/** About the width of a label's character, in pixels (12 px text). */
const CHAR_WIDTH = 6.5;
const LINE_HEIGHT = 14;
/** At most this many names at once (a world view of small countries stays readable). */
const MAX_LABELS = 40;

export function MapLabels({
  labels,
  view,
  size,
}: {
  labels: PlaceLabel[];
  view: View;
  size: Size;
}) {
  const placed: { label: PlaceLabel; x: number; y: number; half: number }[] = [];
  for (const label of labels) {
    if (placed.length >= MAX_LABELS) break;
    const half = (label.name.length * CHAR_WIDTH) / 2;
    if (label.width * view.k < half * 2 + 8) continue;
    const x = label.x * view.k + view.x;
    const y = label.y * view.k + view.y;
    if (x + half < 0 || x - half > size.width || y < 0 || y > size.height) continue;
    const overlaps = placed.some(
      (p) => Math.abs(p.y - y) < LINE_HEIGHT && Math.abs(p.x - x) < p.half + half,
    );
    if (!overlaps) placed.push({ label, x, y, half });
  }
  return (
    <g className="places">
      {placed.map(({ label, x, y }) => (
        <text key={label.name} x={x} y={y} textAnchor="middle">
          {label.name}
        </text>
      ))}
    </g>
  );
}
