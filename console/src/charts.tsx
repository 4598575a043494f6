// Charts drawn as SVG by hand (a chart library would outweigh the whole console): a line chart
// of several series over days and a horizontal bar chart. Each has a text alternative (the
// figures in the SVG's aria-label). Each is drawn at the width it is shown at (one unit of the
// viewBox is one CSS pixel, measured with a ResizeObserver), so its labels keep their size on a
// phone instead of shrinking with the picture; narrow bar charts put each label above its bar.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Colours with at least 4.5:1 contrast on white, told apart by dash pattern too. */
export const SERIES_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#0e7490'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];

/** Widths the charts are drawn at: the figure's own, within these bounds (styles.css caps it). */
const MIN_WIDTH = 260;
const MAX_WIDTH = 720;
/** Below this width a chart uses its narrow layout. */
const NARROW = 480;
/** The text's size in the SVG, in pixels since a unit is a pixel (styles.css: .chart .axis). */
const FONT = 12;

export interface Series {
  name: string;
  values: number[];
}

/**
 * The width an element is shown at, in CSS pixels (`fallback` until measured), kept up to date
 * as the window or the layout changes. For SVG drawn at its real size (charts, the store map).
 */
export function useElementWidth<T extends Element>(
  fallback: number,
): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.round(element.getBoundingClientRect().width);
      if (measured > 0) setWidth(measured);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const clampWidth = (width: number) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width));

export function LineChart({
  labels,
  series,
  title,
}: {
  labels: string[];
  series: Series[];
  title: string;
}) {
  const [figure, shownWidth] = useElementWidth<HTMLElement>(640);
  const width = clampWidth(shownWidth);
  const narrow = width < NARROW;
  const height = narrow ? 180 : 220;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  // Room for the largest value's digits left of the axis.
  const left = 12 + String(max).length * (FONT * 0.62);
  const right = 10;
  const bottom = 24;
  const x = (i: number) => left + (i * (width - left - right)) / Math.max(1, labels.length - 1);
  const y = (v: number) => 10 + (height - bottom - 10) * (1 - v / max);
  const totals = series.map((s) => `${s.name} ${s.values.reduce((a, b) => a + b, 0)}`).join(', ');
  const middle = Math.floor((labels.length - 1) / 2);
  return (
    <figure className="chart" ref={figure}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${totals}`}>
        <line x1={left} y1={y(0)} x2={width - right} y2={y(0)} stroke="#6b7280" />
        <line x1={left} y1={10} x2={left} y2={y(0)} stroke="#6b7280" />
        <text x={left - 6} y={10 + FONT * 0.35} textAnchor="end" className="axis">
          {max}
        </text>
        <text x={left - 6} y={y(0) + FONT * 0.35} textAnchor="end" className="axis">
          0
        </text>
        {labels.length > 0 && (
          <>
            <text x={left} y={height - 6} className="axis">
              {labels[0]}
            </text>
            {!narrow && labels.length > 2 && (
              <text x={x(middle)} y={height - 6} textAnchor="middle" className="axis">
                {labels[middle]}
              </text>
            )}
            <text x={width - right} y={height - 6} textAnchor="end" className="axis">
              {labels[labels.length - 1]}
            </text>
          </>
        )}
        {series.map((s, index) => (
          <polyline
            key={s.name}
            fill="none"
            stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]}
            strokeDasharray={DASHES[index % DASHES.length]}
            strokeWidth={2}
            points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
          />
        ))}
      </svg>
      <figcaption>
        <ul className="legend">
          {series.map((s, index) => (
            <li key={s.name}>
              <svg width="24" height="8" aria-hidden="true">
                <line
                  x1="0"
                  y1="4"
                  x2="24"
                  y2="4"
                  stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]}
                  strokeDasharray={DASHES[index % DASHES.length]}
                  strokeWidth="2"
                />
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

export function BarChart({
  bars,
  title,
}: {
  bars: { label: string; value: number }[];
  title: string;
}) {
  const [figure, shownWidth] = useElementWidth<HTMLElement>(640);
  const width = clampWidth(shownWidth);
  // Narrow: each label on its own line above its bar; wide: labels in a column left of the bars.
  const narrow = width < NARROW;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const valueRoom = 12 + String(max).length * (FONT * 0.62);
  const labelWidth = narrow ? 0 : Math.min(260, Math.round(width * 0.4));
  const barTop = narrow ? FONT + 6 : 4;
  const barHeight = 18;
  const rowHeight = barTop + barHeight + (narrow ? 10 : 6);
  const barWidth = (value: number) => ((width - labelWidth - valueRoom) * value) / max;
  return (
    <figure className="chart" ref={figure}>
      <svg
        viewBox={`0 0 ${width} ${bars.length * rowHeight + 4}`}
        role="img"
        aria-label={`${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}
      >
        {bars.map((bar, i) => (
          <g key={bar.label} transform={`translate(0, ${i * rowHeight + 2})`}>
            {narrow ? (
              <text x={0} y={FONT} className="axis">
                {bar.label}
              </text>
            ) : (
              <text x={labelWidth - 8} y={barTop + 13} textAnchor="end" className="axis">
                {bar.label}
              </text>
            )}
            <rect
              x={labelWidth}
              y={barTop}
              height={barHeight}
              width={barWidth(bar.value)}
              fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}
            />
            <text x={labelWidth + barWidth(bar.value) + 6} y={barTop + 13} className="axis">
              {bar.value}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
