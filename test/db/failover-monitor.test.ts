// The failover pair's monitor asked before writing to a node newly connected to
// (src/db/failover/failover-monitor.ts, DATABASE_MONITOR_URL): the server writes only to the node the
// monitor makes primary, refuses every node (57P03: 503 with Retry-After) while two claim it, and
// goes on as before when the monitor does not answer. The "pair" is the run's database behind two
// TCP proxies, both taking writes as both nodes of a split pair do, and the monitor a database
// holding pg_auto_failover's node table, set by each case.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection/database.ts';
import { verdictOf, type MonitorNode } from '../../src/db/failover/failover-monitor.ts';
import { isDatabaseUnavailable } from '../../src/db/connection/connection-loss.ts';
import { databaseUrlFor } from '../support/database-url.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const onPostgres = inject('testDatabase').engine === 'postgres';

const node = (
  host: string,
  goalState: string,
  reportedState = goalState,
  health = 1,
): MonitorNode => ({ host, port: 5432, group: 0, goalState, reportedState, health });

describe('verdictOf', () => {
  const here = { host: '127.0.0.1', port: 5432 };
  it.each([
    [
      'the primary, its standby a secondary',
      'primary',
      [node('127.0.0.1', 'primary'), node('h2', 'secondary')],
    ],
    ['alone (single)', 'primary', [node('127.0.0.1', 'single')]],
    ['a standby', 'not-primary', [node('127.0.0.1', 'secondary'), node('h2', 'primary')]],
    [
      'demoting',
      'not-primary',
      [node('127.0.0.1', 'demote_timeout', 'primary'), node('h2', 'stop_replication')],
    ],
    ['unknown to the monitor', 'not-primary', [node('h2', 'primary')]],
    [
      'assigned primary while the other still reports it',
      'two-primaries',
      [node('127.0.0.1', 'primary'), node('h2', 'secondary', 'primary')],
    ],
    [
      'promoted after a kill, the dead primary still reporting it (health 0)',
      'primary',
      [node('127.0.0.1', 'wait_primary'), node('h2', 'demoted', 'primary', 0)],
    ],
    [
      'the other reporting primary, not yet health-checked (-1)',
      'two-primaries',
      [node('127.0.0.1', 'primary'), node('h2', 'secondary', 'primary', -1)],
    ],
    [
      'assigned primary with the other',
      'two-primaries',
      [node('127.0.0.1', 'wait_primary'), node('h2', 'primary')],
    ],
  ] as const)('%s: %s', (_case, verdict, nodes) => {
    expect(verdictOf(nodes, here)).toBe(verdict);
  });

  it('matches the host by name and port, the name in any case', () => {
    const nodes = [node('LocalHost', 'primary'), { ...node('localhost', 'secondary'), port: 5433 }];
    expect(verdictOf(nodes, { host: 'localhost', port: 5432 })).toBe('primary');
    expect(verdictOf(nodes, { host: 'localhost', port: 5433 })).toBe('not-primary');
  });
});

describe.skipIf(!onPostgres)('writing to a pair with its monitor (DATABASE_MONITOR_URL)', () => {
  let data: TestDatabase;
  let monitor: TestDatabase;
  let monitorPool: pg.Pool;
  const opened: DatabaseHandle[] = [];
  /** The two "nodes": the run's database behind two proxies. */
  let nodes: { a: TcpProxy; b: TcpProxy };
  let pairUrl: string;

  beforeAll(async () => {
    data = await openTestDatabase();
    monitor = await openTestDatabase();
    monitorPool = new pg.Pool({ connectionString: monitor.url, max: 1 });
    await monitorPool.query(`
      create schema pgautofailover;
      create table pgautofailover.node (
        nodehost text, nodeport int, groupid int, goalstate text, reportedstate text,
        health int default 1)`);
    const url = new URL(data.url!);
    const target = Number(url.port || 5432);
    nodes = {
      a: await startTcpProxy(url.hostname, target),
      b: await startTcpProxy(url.hostname, target),
    };
    const auth = url.password ? `${url.username}:${url.password}` : url.username;
    pairUrl = `postgres://${auth}@127.0.0.1:${nodes.a.port},127.0.0.1:${nodes.b.port}${url.pathname}`;
  });
  afterAll(async () => {
    for (const handle of opened) await handle.close();
    await nodes?.a.close();
    await nodes?.b.close();
    await monitorPool?.end();
    await monitor?.handle.close();
    await data?.handle.close();
  });

  /** The monitor's view: each node's goal and reported state. */
  async function monitorSays(states: { a: [string, string?]; b: [string, string?] }) {
    await monitorPool.query('delete from pgautofailover.node');
    for (const name of ['a', 'b'] as const) {
      const [goal, reported] = states[name];
      await monitorPool.query('insert into pgautofailover.node values ($1, $2, 0, $3, $4, 1)', [
        '127.0.0.1',
        nodes[name].port,
        goal,
        reported ?? goal,
      ]);
    }
  }

  async function open(monitorUrl: string): Promise<DatabaseHandle> {
    const handle = await openDatabase({
      databaseUrl: pairUrl,
      databaseMonitorUrl: monitorUrl,
      dataDir: '',
      poolSize: 2,
    });
    opened.push(handle);
    return handle;
  }

  const outcome = (handle: DatabaseHandle) =>
    handle.query('select 1').then(
      () => 'written',
      (error: unknown) =>
        isDatabaseUnavailable(error) ? `unavailable: ${(error as Error).message}` : error,
    );

  it('writes to the node the monitor makes primary, not to the first that takes writes', async () => {
    await monitorSays({ a: ['demoted'], b: ['primary'] });
    const handle = await open(monitor.url!);
    await handle.query('create table if not exists monitor_probe (n int)');
    await handle.query('insert into monitor_probe values (1)');
    expect(nodes.a.openConnections()).toBe(0);
    expect(nodes.b.openConnections()).toBeGreaterThan(0);
    await handle.close();
    opened.pop();
  });

  it('refuses every write as unavailable while two nodes claim the primary, and writes again once one does', async () => {
    await monitorSays({ a: ['primary'], b: ['secondary'] });
    const handle = await open(monitor.url!);
    expect(await outcome(handle)).toBe('written');
    expect(nodes.a.openConnections()).toBeGreaterThan(0);
    // Node b reports itself primary too; the pool's connections break and are made again.
    await monitorSays({ a: ['primary'], b: ['secondary', 'primary'] });
    await nodes.a.cut();
    await nodes.a.restore();
    await expect.poll(() => outcome(handle)).toMatch(/^unavailable: Two database nodes claim/);
    await monitorSays({ a: ['primary'], b: ['secondary'] });
    await expect.poll(() => outcome(handle)).toBe('written');
  });

  it('writes to the node that takes writes when the monitor does not answer', async () => {
    const nowhere = databaseUrlFor(
      monitor.url!,
      `omni_no_monitor_${randomBytes(4).toString('hex')}`,
    );
    const handle = await open(nowhere);
    expect(await outcome(handle)).toBe('written');
  });
});
