// pg-boss 10's worker ends each job it ran with complete() or fail() and does not await either
// (manager.js, watch → onFetch). When the database cannot be reached at that moment (an outage,
// a failover between the handler's end and the job's), the call rejects with no one listening
// and Node ends the whole server on the unhandled rejection. Here those two calls, wherever they
// come from, answer undefined instead of throwing when the database is unreachable, and say so
// to the queue's log: the job stays active, and pg-boss's expiry (or the module's own lease and
// sweeper, for catalog jobs) runs it again, which the job runs' records make safe. Any other
// error still throws. Applied once, before the first PgBoss is made.
import { createRequire } from 'node:module';
import { isDatabaseUnavailable } from '../db/connection/connection-loss.ts';

type Ending = (this: unknown, ...args: unknown[]) => Promise<unknown>;
interface ManagerPrototype {
  complete: Ending;
  fail: Ending;
}

let report: (ending: 'complete' | 'fail', error: unknown) => void = () => undefined;
let applied = false;

/** Makes pg-boss's job endings survive an unreachable database; `onLost` hears of each. */
export function keepJobEndingsFromEndingTheProcess(
  onLost: (ending: 'complete' | 'fail', error: unknown) => void,
): void {
  report = onLost;
  if (applied) return;
  applied = true;
  const manager = (
    createRequire(import.meta.url)('pg-boss/src/manager.js') as { prototype: ManagerPrototype }
  ).prototype;
  for (const ending of ['complete', 'fail'] as const) {
    const original = manager[ending];
    manager[ending] = async function (this: unknown, ...args: unknown[]) {
      try {
        return await original.apply(this, args);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        report(ending, error);
        return undefined;
      }
    };
  }
}
