// The catalog module's settings, from the environment (src/config.ts composes every module's).
import { integer, type Env } from '../../config/env-readers.ts';

export interface CatalogSettings {
  /** Longest record of a catalog import (a JSONL line or a CSV row), in bytes. */
  importMaxRecordBytes: number;
  /** Largest catalog import file in bytes (a body posted to the import route). */
  importMaxBytes: number;
  /**
   * A text search counts its matches exactly, and ranks them all, up to this many; above it the
   * total and the navigation counts are estimated from a sample (docs/api.md, item search).
   */
  searchExactCountLimit: number;
  /** How long a running import or export job holds its lease before another instance may take it over. */
  catalogJobLeaseSeconds: number;
}

export function catalogSettings(env: Env): CatalogSettings {
  return {
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 1_073_741_824, 1, 68_719_476_736),
    searchExactCountLimit: integer(env, 'SEARCH_EXACT_COUNT_LIMIT', 5000, 100, 1_000_000),
    importMaxRecordBytes: integer(env, 'IMPORT_MAX_RECORD_BYTES', 1_048_576, 1024, 67_108_864),
    catalogJobLeaseSeconds: integer(env, 'CATALOG_JOB_LEASE_SECONDS', 30, 2, 3600),
  };
}
