// Gateway rate limits: requests per service per one-second window. Counted in the database on
// PostgreSQL (shared by every instance); in memory on the embedded database (one process).
import type { DatabaseHandle } from '../../db/connection/database.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number): Promise<RateDecision>;
}

function decide(count: number, limit: number, now: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((1000 - (now % 1000)) / 1000)),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { window: number; count: number }>();

  async hit(key: string, limit: number): Promise<RateDecision> {
    const now = Date.now();
    const window = Math.floor(now / 1000);
    const current = this.windows.get(key);
    const count = current && current.window === window ? current.count + 1 : 1;
    this.windows.set(key, { window, count });
    return decide(count, limit, now);
  }
}

export class PostgresRateLimiter implements RateLimiter {
  private readonly db: DatabaseHandle;
  private lastCleanup = 0;

  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async hit(key: string, limit: number): Promise<RateDecision> {
    const now = Date.now();
    const window = Math.floor(now / 1000);
    const [row] = await this.db.prepared<{ requests: number }>(
      'gateway_rate_hit',
      `insert into gateway_rate_windows (service_name, window_start, requests) values ($1, $2, 1)
       on conflict (service_name, window_start) do update set requests = gateway_rate_windows.requests + 1
       returning requests`,
      [key, window],
    );
    if (now - this.lastCleanup > 60_000) {
      this.lastCleanup = now;
      await this.db.query('delete from gateway_rate_windows where window_start < $1', [
        window - 60,
      ]);
    }
    return decide(row!.requests, limit, now);
  }
}
