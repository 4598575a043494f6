// The search peer of bench/search-peer.ts: a Sphinx 2.2 searchd (Debian's `sphinxsearch`, found
// on PATH or at SPHINX_SEARCHD) on loopback, with one real-time index of a tenant's catalog,
// spoken to over SphinxQL (the MySQL protocol) by mysql2.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { freePort } from './processes.ts';

export const SPHINX_INDEX = 'items';

/** The index's full-text fields, in ranking weight order (ours: Title/Name A, SKU/Model B, rest C). */
export const SPHINX_FIELDS = [
  'title',
  'name',
  'sku',
  'model',
  'short_description',
  'long_description',
] as const;

/**
 * Field weights that rank as our search does for one-word queries: the best field a word is in
 * (title or name above SKU or model above the descriptions), ties by id.
 */
export const FIELD_WEIGHTS =
  'title=4, name=4, sku=2, model=2, short_description=1, long_description=1';

/** The path of searchd, or undefined (with why) when it is not installed. */
export function findSearchd(): string | undefined {
  const given = process.env.SPHINX_SEARCHD;
  if (given) return existsSync(given) ? given : undefined;
  const found = spawnSync('sh', ['-c', 'command -v searchd'], { encoding: 'utf8' });
  const where = found.stdout.trim();
  return found.status === 0 && where ? where : undefined;
}

export interface SphinxServer {
  port: number;
  dir: string;
  connect: () => Promise<Connection>;
  stop: () => Promise<void>;
}

/**
 * Starts searchd with the catalog's RT index in `dir` (kept there between runs: a later start
 * with the same dir serves what was loaded). Strings compare as bytes, as PostgreSQL's C.UTF-8
 * collation does (the deep page's Title order).
 */
export async function startSphinx(searchd: string, dir: string): Promise<SphinxServer> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const config = `index ${SPHINX_INDEX}
{
  type = rt
  path = ${path.join(dir, SPHINX_INDEX)}
${SPHINX_FIELDS.map((f) => `  rt_field = ${f}`).join('\n')}
  rt_attr_uint = category_id
  rt_attr_uint = brand_id
  rt_attr_uint = item_status_id
  rt_attr_multi = tag_ids
  rt_attr_multi = value_ids
  rt_attr_float = price_1
  rt_attr_float = price_2
  rt_attr_float = rating
  rt_attr_timestamp = date_added
  rt_attr_string = title_key
  rt_mem_limit = 2047M
  dict = keywords
  min_prefix_len = 2
}

searchd
{
  listen = 127.0.0.1:${port}:mysql41
  log = ${path.join(dir, 'searchd.log')}
  pid_file = ${path.join(dir, 'searchd.pid')}
  binlog_path =
  workers = threads
  max_children = 64
  collation_server = binary
  max_packet_size = 32M
}
`;
  const configFile = path.join(dir, 'sphinx.conf');
  await writeFile(configFile, config);
  const child: ChildProcess = spawn(searchd, ['--config', configFile, '--nodetach'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const connect = () =>
    createConnection({
      host: '127.0.0.1',
      port,
      multipleStatements: true,
      supportBigNumbers: true,
    });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`searchd exited with ${child.exitCode}`);
    try {
      const probe = await connect();
      await probe.query(`select id from ${SPHINX_INDEX} limit 1`);
      await probe.end();
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    port,
    dir,
    connect,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
