// Charts drawn as SVG by hand (a chart library would outweigh the whole console): a line chart
// of several series over days and a horizontal bar chart. Each has a text alternative.

/** Colours with at least 4.5:1 contrast on white, told apart by dash pattern too. */
export const SERIES_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#0e7490'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];

export interface Series {
  name: string;
  values: number[];
}

export function LineChart({
  labels,
  series,
  title,
}: {
  labels: string[];
  series: Series[];
  title: string;
}) {
  const width = 640;
  const height = 220;
  const left = 40;
  const bottom = 24;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const x = (i: number) => left + (i * (width - left - 10)) / Math.max(1, labels.length - 1);
  const y = (v: number) => 10 + (height - bottom - 10) * (1 - v / max);
  const totals = series.map((s) => `${s.name} ${s.values.reduce((a, b) => a + b, 0)}`).join(', ');
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${totals}`}>
        <line x1={left} y1={y(0)} x2={width - 10} y2={y(0)} stroke="#6b7280" />
        <line x1={left} y1={10} x2={left} y2={y(0)} stroke="#6b7280" />
        <text x={left - 6} y={14} textAnchor="end" className="axis">
          {max}
        </text>
        <text x={left - 6} y={y(0)} textAnchor="end" className="axis">
          0
        </text>
        {labels.length > 0 && (
          <>
            <text x={left} y={height - 6} className="axis">
              {labels[0]}
            </text>
            <text x={width - 10} y={height - 6} textAnchor="end" className="axis">
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
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rowHeight = 28;
  const width = 640;
  const labelWidth = 260;
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${bars.length * rowHeight + 4}`}
        role="img"
        aria-label={`${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}
      >
        {bars.map((bar, i) => (
          <g key={bar.label} transform={`translate(0, ${i * rowHeight + 2})`}>
            <text x={labelWidth - 8} y={17} textAnchor="end" className="axis">
              {bar.label}
            </text>
            <rect
              x={labelWidth}
              y={4}
              height={rowHeight - 10}
              width={((width - labelWidth - 60) * bar.value) / max}
              fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}
            />
            <text
              x={labelWidth + ((width - labelWidth - 60) * bar.value) / max + 6}
              y={17}
              className="axis"
            >
              {bar.value}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
