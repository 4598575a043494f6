// The geometry of the stores' map, without the DOM: the world on a plane (Web Mercator, as web
// maps draw it: shapes keep their angles when zoomed in), the view on that plane (zoom and pan
// within limits) and the clustering of markers that would cover each other.
import { geoMercator } from 'd3-geo';

/** The world's width (and height, ±85.05° of latitude) on the plane. */
export const PLANE = 1000;
/** Latitudes beyond this are drawn at it (Mercator's poles are infinitely far). */
const MAX_LATITUDE = 85.0511;
/**
 * How far the map zooms in: the world 2^22 pixels wide (a web map's zoom level 14, streets of a
 * city: 1 km is about 100 px at the equator), whatever the map's own width.
 */
export const MAX_WORLD_PIXELS = 2 ** 22;

export const projection = geoMercator()
  .scale(PLANE / (2 * Math.PI))
  .translate([PLANE / 2, PLANE / 2]);

export interface LonLat {
  lon: number;
  lat: number;
}
export interface Point {
  x: number;
  y: number;
}

/** A longitude and latitude on the plane. */
export function toPlane({ lon, lat }: LonLat): Point {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const [x, y] = projection([lon, clamped]) ?? [PLANE / 2, PLANE / 2];
  return { x, y };
}

/** The longitude and latitude of a point of the plane. */
export function fromPlane({ x, y }: Point): LonLat {
  const [lon, lat] = projection.invert?.([x, y]) ?? [0, 0];
  return { lon: Math.max(-180, Math.min(180, lon)), lat: Math.max(-90, Math.min(90, lat)) };
}

/** What the map shows: a point p of the plane is drawn at p × k + (x, y) in CSS pixels. */
export interface View {
  k: number;
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

/** The zoom at which the world's width fills the map, and the largest one. */
export function zoomLimits({ width }: Size): { min: number; max: number } {
  const min = Math.max(1, width) / PLANE;
  return { min, max: Math.max(min * 2, MAX_WORLD_PIXELS / PLANE) };
}

/** The view within its limits: zoom between min and max, never past the world's edges. */
export function clampView(view: View, size: Size): View {
  const { min, max } = zoomLimits(size);
  const k = Math.max(min, Math.min(max, view.k));
  const span = PLANE * k;
  const along = (offset: number, length: number) =>
    span <= length ? (length - span) / 2 : Math.max(length - span, Math.min(0, offset));
  return { k, x: along(view.x, size.width), y: along(view.y, size.height) };
}

/** Zooms by `factor` keeping the plane's point under (sx, sy) where it is. */
export function zoomAt(view: View, factor: number, sx: number, sy: number, size: Size): View {
  const { min, max } = zoomLimits(size);
  const k = Math.max(min, Math.min(max, view.k * factor));
  const ratio = k / view.k;
  return clampView({ k, x: sx - (sx - view.x) * ratio, y: sy - (sy - view.y) * ratio }, size);
}

/** The view centred on a point of the plane at zoom k. */
export function centreOn(point: Point, k: number, size: Size): View {
  return clampView({ k, x: size.width / 2 - point.x * k, y: size.height / 2 - point.y * k }, size);
}

/**
 * The view showing every point with a margin of `pad` pixels, zoomed in no further than
 * `maxK` (one store alone is shown at that zoom); the whole world when there is no point.
 */
export function fitView(points: Point[], size: Size, pad: number, maxK?: number): View {
  const limits = zoomLimits(size);
  if (points.length === 0) return centreOn(toPlane({ lon: 10, lat: 30 }), limits.min, size);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [west, east, north, south] = [
    Math.min(...xs),
    Math.max(...xs),
    Math.min(...ys),
    Math.max(...ys),
  ];
  const across = (length: number, extent: number) =>
    extent === 0 ? Infinity : Math.max(1, length - 2 * pad) / extent;
  const k = Math.min(
    across(size.width, east - west),
    across(size.height, south - north),
    maxK ?? limits.max,
    limits.max,
  );
  return centreOn({ x: (west + east) / 2, y: (north + south) / 2 }, k, size);
}

/** Markers drawn closer than this (CSS pixels, centre to centre) are one cluster. */
export const CLUSTER_RADIUS = 36;

export interface Cluster {
  /** Stable while its members stay together: the smallest member's key. */
  key: number;
  /** Where it is drawn, on the plane. */
  at: Point;
  /** Indexes of its points, in the order given. */
  members: number[];
}

/**
 * Groups points that would be drawn within `radius` pixels of each other at zoom k. Points fall
 * into square cells of the radius (on the plane, so panning never changes the groups); each cell
 * is drawn at its points' mean; then cells, largest first, join an already placed one within the
 * radius, which keeps its place. So no two markers are ever drawn closer than the radius, and
 * a cluster's marker stands where most of its points are.
 */
export function clusterPoints(
  points: (Point & { key: number })[],
  k: number,
  radius = CLUSTER_RADIUS,
): Cluster[] {
  const cell = radius / k;
  const cells = new Map<string, number[]>();
  points.forEach((p, index) => {
    const id = `${Math.floor(p.x / cell)}:${Math.floor(p.y / cell)}`;
    const members = cells.get(id);
    if (members) members.push(index);
    else cells.set(id, [index]);
  });
  const candidates = [...cells.values()].map((members) => ({
    members,
    at: {
      x: members.reduce((sum, i) => sum + points[i]!.x, 0) / members.length,
      y: members.reduce((sum, i) => sum + points[i]!.y, 0) / members.length,
    },
  }));
  candidates.sort((a, b) => b.members.length - a.members.length || a.at.x - b.at.x);
  const placed: { at: Point; members: number[] }[] = [];
  // Placed clusters by cell of the radius: a neighbour within the radius is in the 3 × 3 cells.
  const grid = new Map<string, number[]>();
  const cellOf = (p: Point) => [Math.floor(p.x / cell), Math.floor(p.y / cell)] as const;
  for (const candidate of candidates) {
    const [cx, cy] = cellOf(candidate.at);
    let host: (typeof placed)[number] | undefined;
    let best = Infinity;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (const index of grid.get(`${cx + dx}:${cy + dy}`) ?? []) {
          const other = placed[index]!;
          const distance = Math.hypot(other.at.x - candidate.at.x, other.at.y - candidate.at.y) * k;
          if (distance < radius && distance < best) {
            best = distance;
            host = other;
          }
        }
    if (host) host.members.push(...candidate.members);
    else {
      const id = `${cx}:${cy}`;
      grid.set(id, [...(grid.get(id) ?? []), placed.length]);
      placed.push({ at: candidate.at, members: [...candidate.members] });
    }
  }
  return placed.map(({ at, members }) => {
    members.sort((a, b) => a - b);
    return { at, members, key: Math.min(...members.map((i) => points[i]!.key)) };
  });
}

/**
 * Whether zooming in can split the points (some two are drawn `radius` apart at the largest
 * zoom); if not (stores at one address), a cluster lists its stores instead.
 */
export function separableAt(points: Point[], maxK: number, radius = CLUSTER_RADIUS): boolean {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  return extent * maxK >= radius;
}
