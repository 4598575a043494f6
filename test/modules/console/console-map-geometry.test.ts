// The stores' map without a browser (console/src/map-geometry.ts): positions to the plane and
// back, the view's limits, and the clustering that keeps markers from covering each other.
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_RADIUS,
  PLANE,
  clampView,
  clusterPoints,
  fitView,
  fromPlane,
  separableAt,
  toPlane,
  zoomAt,
  zoomLimits,
} from '../../../console/src/map-geometry.ts';

const size = { width: 800, height: 450 };

describe('toPlane and fromPlane', () => {
  it.each([
    [13.405, 52.52],
    [-74.006, 40.7128],
    [151.2093, -33.8688],
    [0, 0],
  ])('take %f, %f to the plane and back', (lon, lat) => {
    const back = fromPlane(toPlane({ lon, lat }));
    expect(back.lon).toBeCloseTo(lon, 9);
    expect(back.lat).toBeCloseTo(lat, 9);
  });

  it('draws the poles at the edge of the map', () => {
    expect(toPlane({ lon: 0, lat: 90 }).y).toBeCloseTo(0, 1);
    expect(toPlane({ lon: 0, lat: -90 }).y).toBeCloseTo(PLANE, 1);
    expect(toPlane({ lon: -180, lat: 0 }).x).toBeCloseTo(0, 6);
  });
});

describe('the view', () => {
  it('zooms between the whole world and a city, and never past the edges', () => {
    const { min, max } = zoomLimits(size);
    expect(min * PLANE).toBe(size.width);
    expect(max * PLANE).toBe(2 ** 22);
    // Zoomed out too far and pushed past the top left: the whole width, at the top left edge.
    expect(clampView({ k: min / 4, x: 500, y: 500 }, size)).toEqual({ k: min, x: 0, y: 0 });
    const far = clampView({ k: min * 2, x: 10_000, y: -10_000 }, size);
    expect(far.x).toBe(0);
    expect(far.y).toBe(size.height - PLANE * min * 2);
  });

  it('keeps the point under the pointer in place when zooming', () => {
    const view = { k: 4, x: -1500, y: -1000 };
    const zoomed = zoomAt(view, 2, 300, 200, size);
    const before = { x: (300 - view.x) / view.k, y: (200 - view.y) / view.k };
    const after = { x: (300 - zoomed.x) / zoomed.k, y: (200 - zoomed.y) / zoomed.k };
    expect(zoomed.k).toBe(8);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
  });

  it('fits every point with the margin, and shows one point at the given zoom', () => {
    const points = [toPlane({ lon: 9.99, lat: 53.55 }), toPlane({ lon: -9.14, lat: 38.72 })];
    const view = fitView(points, size, 48);
    for (const p of points) {
      const x = p.x * view.k + view.x;
      const y = p.y * view.k + view.y;
      expect(x).toBeGreaterThanOrEqual(47.9);
      expect(x).toBeLessThanOrEqual(size.width - 47.9);
      expect(y).toBeGreaterThanOrEqual(47.9);
      expect(y).toBeLessThanOrEqual(size.height - 47.9);
    }
    expect(fitView([points[0]!], size, 48, 100).k).toBe(100);
  });
});

describe('clusterPoints', () => {
  const scatter = (n: number, seed = 7) => {
    let state = seed;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    return Array.from({ length: n }, (_, key) => ({
      ...toPlane({ lon: 5 + random() * 10, lat: 45 + random() * 8 }),
      key: key + 1,
    }));
  };

  it.each([1, 4, 16, 64, 256])(
    'never draws two markers closer than the radius (zoom %i×)',
    (times) => {
      const points = scatter(2000);
      const k = zoomLimits(size).min * times;
      const clusters = clusterPoints(points, k);
      let closest = Infinity;
      for (const [i, a] of clusters.entries())
        for (const b of clusters.slice(i + 1))
          closest = Math.min(closest, Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y) * k);
      expect(closest).toBeGreaterThanOrEqual(CLUSTER_RADIUS);
      // Every point is in exactly one cluster, keyed by its smallest member.
      const members = clusters.flatMap((c) => c.members).sort((a, b) => a - b);
      expect(members).toEqual(points.map((_, i) => i));
      for (const c of clusters)
        expect(c.key).toBe(Math.min(...c.members.map((i) => points[i]!.key)));
    },
  );

  it('splits as the zoom grows, down to one marker per store', () => {
    const points = scatter(50);
    const counts = [1, 8, 64, 512, 4096].map(
      (times) => clusterPoints(points, zoomLimits(size).min * times).length,
    );
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(50);
  });

  it('tells stores at one place from stores a zoom can split', () => {
    const here = toPlane({ lon: -3.7038, lat: 40.4168 });
    const { max } = zoomLimits(size);
    expect(separableAt([here, { ...here }], max)).toBe(false);
    const louvre = toPlane({ lon: 2.3376, lat: 48.8606 });
    const hotel = toPlane({ lon: 2.3522, lat: 48.8566 });
    expect(separableAt([louvre, hotel], max)).toBe(true);
  });
});
