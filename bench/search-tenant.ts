// The search scenarios' catalog, in a tenant of its own (bench/search-seed.ts), made or reused by
// `npm run bench` and `npm run bench:search-peer`.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createTenant, runNode } from './processes.ts';

export interface SearchSeed {
  tenantName: string;
  appId: string;
  secret: string;
  brandId: number;
  priceTypeId: number;
}

// BENCH_SEARCH_TENANT_FILE=<path>: the search tenant is kept after the run and described in that
// file, and a later run whose file exists measures that tenant again instead of seeding one (a
// 1M-item seed takes minutes: it can run outside the bench lock, with BENCH_SEED_ONLY=1).
export const SEARCH_TENANT_FILE = process.env.BENCH_SEARCH_TENANT_FILE;
/** BENCH_SEED_ONLY=1: seed (and keep, with BENCH_SEARCH_TENANT_FILE) and measure nothing. */
export const SEED_ONLY = process.env.BENCH_SEED_ONLY === '1';

export async function seedSearch(tenantName: string, env: NodeJS.ProcessEnv): Promise<SearchSeed> {
  if (SEARCH_TENANT_FILE && existsSync(SEARCH_TENANT_FILE)) {
    const kept = JSON.parse(await readFile(SEARCH_TENANT_FILE, 'utf8')) as SearchSeed;
    process.stderr.write(`search tenant ${kept.tenantName} reused (${SEARCH_TENANT_FILE})\n`);
    return kept;
  }
  const app = await createTenant(tenantName, env);
  const seeded = JSON.parse(await runNode(['bench/search-seed.ts', tenantName], env)) as {
    brandId: number;
    priceTypeId: number;
    seedSeconds: number;
  };
  process.stderr.write(`search seed: ${seeded.seedSeconds} s\n`);
  const search = {
    tenantName,
    appId: app.ApplicationId,
    secret: app.ApplicationSecret,
    brandId: seeded.brandId,
    priceTypeId: seeded.priceTypeId,
  };
  if (SEARCH_TENANT_FILE) await writeFile(SEARCH_TENANT_FILE, JSON.stringify(search));
  return search;
}
