// The failover pair's monitor (pg_auto_failover), asked before the server writes to a node it
// has newly connected to (DATABASE_MONITOR_URL; docs/operations.md, "A failover pair"). A node
// that answers read-write is not always the primary: pg_auto_failover 2.0 can leave both nodes
// read-write for a while (hapostgres/pg_auto_failover#1032, the monitor deciding on a stale
// report), and an old primary that lost its monitor takes writes until it demotes itself. The
// monitor's assignments are what the pair keeps, so the server writes only to the node the
// monitor makes primary, and to none while two nodes claim it.
import pg from 'pg';
import type { DatabaseHost } from './primary-hosts.ts';

/** pg_auto_failover's states in which a node takes writes. */
const WRITABLE_STATES = new Set([
  'single',
  'wait_primary',
  'primary',
  'join_primary',
  'apply_settings',
]);

const MONITOR_CONNECT_MS = 2_000;
const MONITOR_QUERY_MS = 2_000;

/**
 * What the monitor says of a node: the primary; another node's (this one is a standby, demoting
 * or unknown); two nodes claiming it; or nothing (the monitor did not answer).
 */
export type MonitorVerdict = 'primary' | 'not-primary' | 'two-primaries' | 'unreachable';

export interface MonitorNode {
  host: string;
  port: number;
  group: number;
  goalState: string;
  reportedState: string;
  /** The monitor's health check of the node: 1 good, 0 failing, -1 not yet checked. */
  health: number;
}

const sameHost = (node: MonitorNode, host: DatabaseHost) =>
  node.port === host.port && node.host.toLowerCase() === host.host.toLowerCase();

/**
 * Whether a node may be taking writes: assigned a writable state, or reporting one while it is
 * not known to be down (a killed primary's last report says "primary" until it comes back).
 */
const claims = (node: MonitorNode) =>
  WRITABLE_STATES.has(node.goalState) ||
  (WRITABLE_STATES.has(node.reportedState) && node.health !== 0);

/**
 * The verdict on `host` from the monitor's nodes: the primary when the monitor assigns it a
 * writable state and no other node of its group is assigned one or reports one (unless the
 * monitor's health check finds that node down).
 */
export function verdictOf(nodes: readonly MonitorNode[], host: DatabaseHost): MonitorVerdict {
  const node = nodes.find((candidate) => sameHost(candidate, host));
  if (!node || !WRITABLE_STATES.has(node.goalState)) return 'not-primary';
  const others = nodes.filter((other) => other !== node && other.group === node.group);
  return others.some(claims) ? 'two-primaries' : 'primary';
}

/** The monitor's database (`pg_auto_failover`), read with one short connection a question. */
export class FailoverMonitor {
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  async verdict(host: DatabaseHost): Promise<MonitorVerdict> {
    let nodes: MonitorNode[];
    try {
      nodes = await this.nodes();
    } catch {
      return 'unreachable';
    }
    return verdictOf(nodes, host);
  }

  private async nodes(): Promise<MonitorNode[]> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: MONITOR_CONNECT_MS,
      query_timeout: MONITOR_QUERY_MS,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<MonitorNode>(
        `select nodehost as host, nodeport as port, groupid as "group",
                goalstate::text as "goalState", reportedstate::text as "reportedState",
                health
           from pgautofailover.node`,
      );
      return rows;
    } finally {
      await client.end().catch(() => {});
    }
  }
}
