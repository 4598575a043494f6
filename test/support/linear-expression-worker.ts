// Runs the cases of linear-expression-cases.ts on request from linear-expressions.test.ts, one at
// a time, and answers how long each input took. A worker, so that the test can stop an
// expression that never ends (a super-linear one on a MiB) instead of blocking with it.
import { parentPort } from 'node:worker_threads';
import { LINEAR_CASES, SCHEMA_CASES } from './linear-expression-cases.ts';

export interface CaseResult {
  name: string;
  /** Milliseconds per input, in order. */
  times: number[];
  /** The class of an error a run threw (a refusal is expected; a TypeError is a broken case). */
  thrown: string[];
}

const port = parentPort!;
const cases = new Map([...LINEAR_CASES, ...SCHEMA_CASES].map((c) => [c.name, c]));

port.on('message', (name: string) => {
  void (async () => {
    const found = cases.get(name)!;
    const result: CaseResult = { name, times: [], thrown: [] };
    for (const input of found.inputs()) {
      const start = performance.now();
      try {
        await found.run(input);
      } catch (error) {
        result.thrown.push((error as Error).constructor.name);
      }
      result.times.push(performance.now() - start);
    }
    port.postMessage(result);
  })();
});
port.postMessage('ready');
