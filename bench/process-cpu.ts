// CPU time of the processes a bench drives, from /proc (Linux): a figure per request that moves
// far less with the shared host's load than requests per second do.
import { readFileSync } from 'node:fs';
import type pg from 'pg';

const TICK_MS = 10; // USER_HZ = 100

/** utime + stime of a process, in ms (undefined when it is gone). */
export function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * CPU ms by pid of the PostgreSQL processes that work for the bench: the backends connected to
 * its database and the shared background processes (WAL writer, checkpointer, …), not other
 * databases' backends.
 */
export async function postgresCpu(pool: pg.Pool | pg.Client): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    `select pid from pg_stat_activity
      where datname = current_database() or backend_type <> 'client backend'`,
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = cpuOf(pid);
    if (cpu !== undefined) out.set(pid, cpu);
  }
  return out;
}

/** PostgreSQL's CPU ms since `before` (postgresCpu's answer then). */
export async function postgresCpuSince(
  pool: pg.Pool | pg.Client,
  before: Map<number, number>,
): Promise<number> {
  let total = 0;
  for (const [pid, cpu] of await postgresCpu(pool)) total += cpu - (before.get(pid) ?? 0);
  return total;
}
