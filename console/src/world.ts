// The world drawn under the stores: Natural Earth's countries at 1:110 million (world-atlas,
// TopoJSON, about 39 KB gzipped), shipped with the console in a chunk of its own that the
// stores' map loads when it first shows: no tile server, so the map works offline.
import { geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { projection } from './map-geometry.ts';

/** A country's name where the map writes it: its centroid on the plane, and its width there. */
export interface PlaceLabel {
  name: string;
  x: number;
  y: number;
  width: number;
}

/** SVG path data on the plane of map-geometry.ts, and the countries' names. */
export interface WorldShapes {
  land: string;
  borders: string;
  labels: PlaceLabel[];
}

type Countries = Topology<{
  countries: GeometryCollection<{ name?: string }>;
  land: GeometryCollection;
}>;

let loading: Promise<WorldShapes> | undefined;

/** The land and the borders between countries, loaded once. */
export function loadWorld(): Promise<WorldShapes> {
  loading ??= import('world-atlas/countries-110m.json').then(
    (module) => {
      const world = module.default as Countries;
      const path = geoPath(projection);
      const labels: PlaceLabel[] = [];
      for (const country of feature(world, world.objects.countries).features) {
        const name = country.properties?.name;
        const [x, y] = path.centroid(country);
        const [[west], [east]] = path.bounds(country);
        if (name && Number.isFinite(x) && Number.isFinite(y))
          labels.push({ name, x, y, width: east - west });
      }
      // Largest first: where labels would overlap, the larger country's is written.
      labels.sort((a, b) => b.width - a.width);
      return {
        land: path(feature(world, world.objects.land)) ?? '',
        borders: path(mesh(world, world.objects.countries, (a, b) => a !== b)) ?? '',
        labels,
      };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
