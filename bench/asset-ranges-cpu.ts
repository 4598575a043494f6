// The server's CPU time per AssetUrl request of a 1 MiB asset: the whole file, one Range of 1,600
// one-byte ranges with gaps between them (what a client may send to make the server work), and
// the same 1,600 ranges adjacent (which combine into one). The server listens on loopback in this
// process; a child process sends the requests one after another, so process.cpuUsage counts the
// server's work and none of the client's.
// Usage: node bench/asset-ranges-cpu.ts [requests per case, default 50]   (ASSET_MAX_RANGES applies)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { createServices } from '../src/module-wiring.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { migrateDatabase } from '../src/migrate-database.ts';

const requests = Number(process.argv[2] ?? 50);
// The client: GETs one after another on a kept-alive connection, bodies read to the end.
const CLIENT = `
const http = require('node:http');
const [port, path, headers, count] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = () => new Promise((resolve, reject) => {
  http.get({ host: '127.0.0.1', port, path, agent, headers: { host: 'bench.localhost', ...JSON.parse(headers) } }, (res) => {
    let bytes = 0;
    res.on('data', (chunk) => (bytes += chunk.length));
    res.on('end', () => resolve({ status: res.statusCode, bytes }));
  }).on('error', reject);
});
(async () => {
  let first;
  for (let i = 0; i < Number(count); i++) { const r = await get(); first ??= r; }
  process.stdout.write(JSON.stringify(first));
  agent.destroy();
})();
`;
const dataDir = await mkdtemp(path.join(tmpdir(), 'omni-ranges-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const database = await openDatabase(config);
try {
  await migrateDatabase(database);
  const services = createServices(config, database);
  const tenant = await services.tenants.create('bench');
  const asset = await services.storage.assets.createFromBuffer(
    tenant.tenant.id,
    'http://bench.localhost',
    { fileName: 'bench.bin', mimeType: 'application/octet-stream' },
    randomBytes(1024 * 1024),
  );
  const app = await buildApp(services);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = new URL(asset.AssetUrl).pathname;
  const ranges = (step: number) =>
    `bytes=${Array.from({ length: 1600 }, (_, i) => `${i * step}-${i * step}`).join(',')}`;
  const cases: Record<string, Record<string, string>> = {
    'whole file': {},
    '16 one-byte ranges (the default cap)': { range: ranges(2).split(',').slice(0, 16).join(',') },
    '1,600 one-byte ranges, gaps between': { range: ranges(2) },
    '1,600 one-byte ranges, adjacent': { range: ranges(1) },
  };
  for (const [name, headers] of Object.entries(cases)) {
    const send = async (count: number) => {
      const child = spawn(
        process.execPath,
        ['-e', CLIENT, String(port), url, JSON.stringify(headers), String(count)],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await once(child, 'exit');
      return JSON.parse(output) as { status: number; bytes: number };
    };
    await send(5); // warm-up (and the child's own start, outside the measured span)
    const before = process.cpuUsage();
    const started = performance.now();
    const first = await send(requests);
    const cpu = process.cpuUsage(before);
    const wall = performance.now() - started;
    const perRequest = (cpu.user + cpu.system) / 1000 / requests;
    console.log(
      `${name}: ${first.status}, ${first.bytes} bytes; ` +
        `server CPU ${perRequest.toFixed(2)} ms/request (${requests} requests, ${(wall / requests).toFixed(2)} ms wall each)`,
    );
  }
  await app.close();
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
