// Distances for the nearest-store search. Stores are indexed by their point as earthdistance's
// ll_to_earth gives it (stores.point): on a sphere of 6378168 m in 3-D space (a cube), so the
// straight-line (chord) distance between two such points grows with the great-circle distance
// between them, and a GiST index finds the nearest by chord without scanning every store,
// across the antimeridian and the poles alike. The great-circle distance itself is taken on the
// WGS84 mean radius (6371008.8 m), so the search radius in kilometres is turned into the chord
// it corresponds to.

/** earthdistance's earth(): the radius of the sphere ll_to_earth places points on. */
export const CUBE_EARTH_RADIUS_M = 6_378_168;
/** WGS84 mean radius (IUGG R1), the radius great-circle distances are measured on. */
export const MEAN_EARTH_RADIUS_M = 6_371_008.8;
/** Half the circumference on the mean radius: no two points are further apart. */
export const MAX_DISTANCE_KM = (Math.PI * MEAN_EARTH_RADIUS_M) / 1000;

/** The chord (in ll_to_earth's units) between two points `km` apart on the great circle. */
export function chordForKm(km: number): number {
  const angle = Math.min(Math.PI, (km * 1000) / MEAN_EARTH_RADIUS_M);
  return 2 * CUBE_EARTH_RADIUS_M * Math.sin(angle / 2);
}

/** The great-circle distance in km of two points whose ll_to_earth chord is `chord`. */
export function kmForChord(chord: number): number {
  const half = Math.min(1, chord / (2 * CUBE_EARTH_RADIUS_M));
  return (2 * MEAN_EARTH_RADIUS_M * Math.asin(half)) / 1000;
}

/** Great-circle distance in km (haversine on the mean radius), for tests and docs. */
export function greatCircleKm(
  from: { longitude: number; latitude: number },
  to: { longitude: number; latitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (to.latitude - from.latitude) * rad;
  const dLon = (to.longitude - from.longitude) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * rad) * Math.cos(to.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return (2 * MEAN_EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)))) / 1000;
}

const NUMBER = '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const LOCATION = new RegExp(`^\\s*(${NUMBER})\\s*;\\s*(${NUMBER})\\s*$`);

/**
 * The `{longitude};{latitude}` path segment: two decimal numbers with a decimal point (never a
 * comma, whatever the client's culture), longitude first; undefined when it is not that or out
 * of range.
 */
export function parseLocation(text: string): { longitude: number; latitude: number } | undefined {
  const match = LOCATION.exec(text);
  if (!match) return undefined;
  const longitude = Number(match[1]);
  const latitude = Number(match[2]);
  if (!(longitude >= -180 && longitude <= 180 && latitude >= -90 && latitude <= 90))
    return undefined;
  return { longitude, latitude };
}
