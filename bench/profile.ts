// npm run bench:profile: where the server's CPU goes on the hot path. It seeds a tenant with a
// small catalog, starts the server with V8's sampling profiler (--cpu-prof), drives one scenario
// (health, app fetch or item fetch) with autocannon, and prints the self time of the busiest
// functions and of each package or source folder. Ratios, not seconds: the machine's load
// changes absolute times, not where the time goes.
//
// It also prints the server process's CPU time per request (user + system, from /proc), the
// figure to compare two versions of the code by: it moves far less with the machine's load than
// requests per second do. BENCH_PROFILE_SAMPLING=0 leaves the profiler off (CPU time only).
//
//   BENCH_PROFILE=health|app|item (default item)   BENCH_DURATION=10   BENCH_DATABASE_URL=…
//   BENCH_PROFILE_INCLUSIVE=<regexp of file URLs> (inclusive time of those files' functions)
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  clientToken,
  createTenant,
  freePort,
  runNode,
  SERVER_NODE_FLAGS,
  serverEnv,
  stop,
  waitFor,
} from './processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCENARIO = process.env.BENCH_PROFILE ?? 'item';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 30);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-profile-'));
const port = await freePort();
const env = serverEnv(port, dataDir, { BENCH_ITEMS: process.env.BENCH_ITEMS ?? '2000' });
const tenantName = `prof${Date.now().toString(36)}`;
const created = await createTenant(tenantName, env);
const seeded = JSON.parse(await runNode(['bench/seed-catalog.ts', tenantName], env)) as {
  minItemId: number;
};
const profileDir = path.join(dataDir, 'profile');
const sampling = process.env.BENCH_PROFILE_SAMPLING !== '0';
const profilerFlags = sampling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, ...profilerFlags, 'src/main.ts', 'serve'],
  { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] },
);
await waitFor(port, '/health/ready', server);
const host = `${tenantName}.localhost`;
const token = await clientToken(port, host, created.ApplicationId, created.ApplicationSecret);
const accept = 'application/vnd.xomni.api-v4_0';
const paths: Record<string, string> = {
  health: '/health/live',
  app: `/management/oauth/apps/${created.ApplicationId}`,
  item: `/private/catalog/item/${seeded.minItemId}`,
};
const urlPath = paths[SCENARIO];
if (!urlPath) throw new Error(`BENCH_PROFILE must be one of ${Object.keys(paths).join(', ')}`);
// Warm up (JIT, caches), then measure.
await autocannon({
  url: `http://127.0.0.1:${port}${urlPath}`,
  connections: 10,
  duration: 2,
  headers: { host, accept, authorization: `Bearer ${token}` },
});
const cpuBefore = await cpuTicks(server.pid!);
const result = await autocannon({
  url: `http://127.0.0.1:${port}${urlPath}`,
  connections: 10,
  duration: DURATION,
  headers: { host, accept, authorization: `Bearer ${token}` },
});
const cpuMs = ((await cpuTicks(server.pid!)) - cpuBefore) * 10;
await stop(server);
console.log(
  `${SCENARIO}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx, p99 ${result.latency.p99} ms, ` +
    `server CPU ${((1000 * cpuMs) / result.requests.total).toFixed(1)} µs per request`,
);
if (!sampling) process.exit(0);

const file = (await readdir(profileDir)).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(await readFile(path.join(profileDir, file), 'utf8')) as CpuProfile;
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) =>
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const time = selfTime.get(node.id) ?? 0;
  if (!time) continue;
  total += time;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = placeOf(url, functionName);
  const key = `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  byPlace.set(place, (byPlace.get(place) ?? 0) + time);
}
// Inclusive time of the project's own functions (a hook's whole cost, callees included), or of
// the functions whose file matches BENCH_PROFILE_INCLUSIVE (a regular expression, e.g. `pino`).
const inclusivePattern = process.env.BENCH_PROFILE_INCLUSIVE
  ? new RegExp(process.env.BENCH_PROFILE_INCLUSIVE)
  : undefined;
const inclusiveOf = (url: string) =>
  inclusivePattern ? inclusivePattern.test(url) : url.startsWith(`file://${ROOT}/src/`);
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);
const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
for (const [id, time] of selfTime) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const { functionName, url, lineNumber } = nodeById.get(at)!.callFrame;
    if (!inclusiveOf(url)) continue;
    const key = `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}
const idle = [...byFunction].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, t]) => s + t, 0);
const busy = total - idle;
print('self time by package or folder (% of busy)', byPlace, busy);
print('busiest functions (% of busy)', byFunction, busy);
print("the project's functions, callees included (% of busy)", inclusive, busy);

function print(title: string, times: Map<string, number>, of: number): void {
  console.log(`\n${title}`);
  for (const [key, time] of [...times].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    if (!key.startsWith('(idle)'))
      console.log(`${((100 * time) / of).toFixed(1).padStart(6)}%  ${key}`);
}

function shortUrl(url: string): string {
  return url.replace(`file://${ROOT}/`, '').replace(/^.*node_modules\//, '');
}

/** node_modules/<package>, src/<folder>, or V8/Node's own (program, GC, node:internal). */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const local = shortUrl(url);
  return local
    .split('/')
    .slice(0, local.startsWith('src/modules/') ? 3 : 2)
    .join('/');
}

/** User + system CPU of a process so far, in clock ticks (1/100 s), from /proc/<pid>/stat. */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
