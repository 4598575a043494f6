// Where the bench's stores are (bench/company-seed.ts puts them there; the nearest-store scenario
// asks near them): a Fibonacci lattice, evenly spread over the whole sphere, poles and
// antimeridian included, about 70 km apart for 100k stores.
export const COMPANY_STORES = Number(process.env.BENCH_STORES ?? 100_000);
export const GOLDEN_ANGLE_DEGREES = 137.50776405003785;

/** Longitude and latitude of the g-th store (1-based), as the seed's SQL computes them. */
export function storeLocation(g: number): { longitude: number; latitude: number } {
  const turn = g * GOLDEN_ANGLE_DEGREES;
  return {
    longitude: turn - 360 * Math.floor(turn / 360) - 180,
    latitude: (Math.asin(1 - (2 * g - 1) / COMPANY_STORES) * 180) / Math.PI,
  };
}

/** A path near a random store (about 1 km north or south of it, so it is the nearest). */
export function nearStorePath(): string {
  const { longitude, latitude } = storeLocation(1 + Math.floor(Math.random() * COMPANY_STORES));
  const nudged = latitude > 0 ? latitude - 0.01 : latitude + 0.01;
  return `/company/stores/${longitude.toFixed(5)};${nudged.toFixed(5)}/logicaldevices?searchDistance=5`;
}
