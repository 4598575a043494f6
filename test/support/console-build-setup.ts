// Vitest global setup: the console's browser tests need its build. Built once per run, and only
// when console/dist is missing or older than the sources (a few milliseconds otherwise).
import { ensureConsoleBuilt } from '../../src/modules/console/console-build.ts';

export default function setup(): void {
  const built = ensureConsoleBuilt();
  if (built) console.log(built);
}
