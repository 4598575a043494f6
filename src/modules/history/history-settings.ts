// The history module's settings (sealing and retention of the change history), from the
// environment (src/config.ts composes every module's).
import { integer, type Env } from '../../config/env-readers.ts';

export interface HistorySettings {
  /**
   * How often each instance seals the entries committed since its last pass into their tenants'
   * hash chains. Entries are readable at once; until sealed their Sequence and Hash are null and
   * the export leaves them out.
   */
  historySealIntervalMs: number;
  /** Entries one pass seals per tenant at most (a tenant with more is sealed over several passes). */
  historySealBatch: number;
  /** How long entries are kept, in days, for a tenant that set no RetentionDays of its own. */
  historyRetentionDays: number;
}

/** The range of a retention, here and in a tenant's own setting: one day to a hundred years. */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 36_500;

export function historySettings(env: Env): HistorySettings {
  return {
    historySealIntervalMs: integer(env, 'HISTORY_SEAL_INTERVAL_MS', 2000, 100, 3_600_000),
    historySealBatch: integer(env, 'HISTORY_SEAL_BATCH', 1000, 1, 100_000),
    historyRetentionDays: integer(
      env,
      'HISTORY_RETENTION_DAYS',
      400,
      RETENTION_DAYS_MIN,
      RETENTION_DAYS_MAX,
    ),
  };
}
