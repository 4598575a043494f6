// The AssetUrl scenarios: a 100 KB PNG whole, a 1 MiB range of a 10 MiB MP4 at a random
// offset (what a player asks for when it seeks, in the bounded chunks Safari and most native
// players request), and the whole MP4 (a download). Each is measured against the same request to
// a bare node:http server answering with fs.createReadStream (asset-baseline.ts), run in the same
// round; the target is half of its req/s.
import type { Request as AutocannonRequest } from 'autocannon';
import type { Scenario } from './scenarios.ts';

/** One seeded asset (storage-seed.ts): its AssetUrl path and the file the baseline serves. */
export interface AssetFile {
  urlPath: string;
  file: string;
  size: number;
  sha256: string;
  mimeType: string;
  fileName: string;
}

export interface AssetSeed {
  image: AssetFile;
  video: AssetFile;
}

export const VIDEO_RANGE_BYTES = 1024 * 1024;

/** A single bounded range of VIDEO_RANGE_BYTES at a random offset of a body of `size` bytes. */
export function randomRange(size: number): string {
  const start = Math.floor(Math.random() * (size - VIDEO_RANGE_BYTES + 1));
  return `bytes=${start}-${start + VIDEO_RANGE_BYTES - 1}`;
}

/** A request for the asset's whole body, or for a random range of it, at `path`. */
function assetRequests(
  path: string,
  headers: Record<string, string>,
  rangeOf?: number,
): AutocannonRequest[] {
  if (rangeOf === undefined) return [{ method: 'GET', path, headers }];
  return [
    {
      method: 'GET',
      path,
      setupRequest: (req) => ({ ...req, headers: { ...headers, range: randomRange(rangeOf) } }),
    },
  ];
}

interface Pair {
  what: string;
  asset: keyof AssetSeed;
  range: boolean;
}

const PAIRS: Pair[] = [
  { what: '100 KB PNG (whole)', asset: 'image', range: false },
  { what: '10 MiB MP4, 1 MiB range at a random offset', asset: 'video', range: true },
  { what: '10 MiB MP4 (whole)', asset: 'video', range: false },
];

const baselineName = (pair: Pair) => `bare fs.createReadStream: ${pair.what} (baseline)`;

export const STORAGE_SCENARIOS: Scenario[] = PAIRS.map((pair) => ({
  name: `GET AssetUrl: ${pair.what}`,
  requests: (ctx) => {
    const file = ctx.assets![pair.asset];
    return assetRequests(
      file.urlPath,
      { host: ctx.tenantHost },
      pair.range ? file.size : undefined,
    );
  },
  dropBodies: true,
  target: { relativeTo: baselineName(pair), minRatio: 0.5 },
}));

/** The baseline of each AssetUrl scenario, for the bare server's paths (/image, /video). */
export interface AssetBaseline {
  name: string;
  /** The AssetUrl scenario it is the baseline of. */
  of: string;
  requests: (seed: AssetSeed) => AutocannonRequest[];
}

export const STORAGE_BASELINES: AssetBaseline[] = PAIRS.map((pair, index) => ({
  name: baselineName(pair),
  of: STORAGE_SCENARIOS[index]!.name,
  requests: (seed) =>
    assetRequests(`/${pair.asset}`, {}, pair.range ? seed[pair.asset].size : undefined),
}));
