// Store locations drawn from their coordinates alone (no map tiles): an equirectangular
// projection of the stores' bounding box (x scaled by the cosine of the middle latitude so
// shapes are not stretched), with a graticule for orientation. Each point names its store and
// the physical devices in it.
import type { PhysicalDevice, Store } from './types.ts';

const WIDTH = 720;
const HEIGHT = 360;
const PAD = 24;

function bounds(stores: Store[]) {
  if (stores.length === 0) return { west: -180, east: 180, south: -80, north: 80 };
  const lons = stores.map((s) => s.Location.Longitude);
  const lats = stores.map((s) => s.Location.Latitude);
  let [west, east, south, north] = [
    Math.min(...lons),
    Math.max(...lons),
    Math.min(...lats),
    Math.max(...lats),
  ];
  // At least 2° across, plus a margin, so one store or close ones are not drawn at an edge.
  const widen = (low: number, high: number, limit: number) => {
    const span = Math.max(2, (high - low) * 1.2);
    const middle = (low + high) / 2;
    return [Math.max(-limit, middle - span / 2), Math.min(limit, middle + span / 2)] as const;
  };
  [west, east] = widen(west, east, 180);
  [south, north] = widen(south, north, 90);
  return { west, east, south, north };
}

export function StoreMap({ stores, devices }: { stores: Store[]; devices: PhysicalDevice[] }) {
  const box = bounds(stores);
  const squeeze = Math.cos((((box.north + box.south) / 2) * Math.PI) / 180);
  const scale = Math.min(
    (WIDTH - 2 * PAD) / ((box.east - box.west) * squeeze),
    (HEIGHT - 2 * PAD) / (box.north - box.south),
  );
  const x = (lon: number) => WIDTH / 2 + (lon - (box.west + box.east) / 2) * squeeze * scale;
  const y = (lat: number) => HEIGHT / 2 - (lat - (box.south + box.north) / 2) * scale;
  const step = [60, 30, 10, 5, 2, 1, 0.5].find((s) => (box.east - box.west) / s >= 3) ?? 0.5;
  const lines = (from: number, to: number) => {
    const list: number[] = [];
    for (let v = Math.ceil(from / step) * step; v <= to; v += step) list.push(Number(v.toFixed(3)));
    return list;
  };
  const devicesOf = (storeId: number) => devices.filter((d) => d.StoreId === storeId);

  return (
    <figure className="map">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-label="Map of store locations">
        <rect width={WIDTH} height={HEIGHT} fill="#eef2f7" />
        {lines(box.west, box.east).map((lon) => (
          <g key={`lon${lon}`}>
            <line x1={x(lon)} x2={x(lon)} y1={0} y2={HEIGHT} stroke="#c7d0dc" />
            <text x={x(lon) + 2} y={HEIGHT - 4} className="axis">
              {lon}°
            </text>
          </g>
        ))}
        {lines(box.south, box.north).map((lat) => (
          <g key={`lat${lat}`}>
            <line x1={0} x2={WIDTH} y1={y(lat)} y2={y(lat)} stroke="#c7d0dc" />
            <text x={2} y={y(lat) - 2} className="axis">
              {lat}°
            </text>
          </g>
        ))}
        {stores.map((store) => {
          const here = devicesOf(store.Id);
          const label = `${store.Name}: ${here.length} device${here.length === 1 ? '' : 's'}${
            here.length ? ` (${here.map((d) => d.DeviceId).join(', ')})` : ''
          }`;
          return (
            <g
              key={store.Id}
              className="store-point"
              role="img"
              aria-label={label}
              data-store={store.Name}
              transform={`translate(${x(store.Location.Longitude)},${y(store.Location.Latitude)})`}
            >
              <title>{label}</title>
              <circle
                r={here.length ? 7 : 5}
                fill={here.length ? '#b91c1c' : '#1d4ed8'}
                stroke="#fff"
                strokeWidth={2}
              />
              <text x={9} y={4} className="map-label">
                {store.Name}
                {here.length ? ` (${here.length})` : ''}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="muted">
        Red points are stores with physical devices; the number is how many.
      </figcaption>
    </figure>
  );
}
