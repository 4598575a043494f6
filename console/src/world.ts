// The world drawn under the stores: Natural Earth's countries at 1:110 million (world-atlas,
// TopoJSON, about 39 KB gzipped), shipped with the console in a chunk of its own that the
// stores' map loads when it first shows: no tile server, so the map works offline.
import { geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { projection } from './map-geometry.ts';

/** SVG path data on the plane of map-geometry.ts. */
export interface WorldShapes {
  land: string;
  borders: string;
}

type Countries = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

let loading: Promise<WorldShapes> | undefined;

/** The land and the borders between countries, loaded once. */
export function loadWorld(): Promise<WorldShapes> {
  loading ??= import('world-atlas/countries-110m.json').then(
    (module) => {
      const world = module.default as Countries;
      const path = geoPath(projection);
      return {
        land: path(feature(world, world.objects.land)) ?? '',
        borders: path(mesh(world, world.objects.countries, (a, b) => a !== b)) ?? '',
      };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
