// DATABASE_URL may name several hosts, as libpq takes them and as pg_auto_failover's
// `pg_autoctl show uri` prints them: postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write.
// node-postgres takes one host, so the server finds the one that takes writes itself: every new
// connection goes to the host last found writable and checks that it still is (libpq's
// target_session_attrs=read-write: `transaction_read_only` off); when a connection cannot be made
// or lands on a standby, or a working one breaks, the hosts are probed again in turn until one
// takes writes (docs/operations.md, "A failover pair"). Meanwhile requests fail fast as
// unavailable (503 with Retry-After), never wait on a dead host.
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { FailoverMonitor, type MonitorVerdict } from './failover-monitor.ts';

export interface DatabaseHost {
  host: string;
  port: number;
}

const DEFAULT_PORT = 5432;
/** How long one probe of one host may take to connect. */
const PROBE_CONNECT_MS = 2_000;
/** The pause between two rounds of probes while no host takes writes. */
const PROBE_PAUSE_MS = 250;

/**
 * The hosts of a postgres:// URL that names several (`h1:p1,h2:p2`), and the URL with the first
 * of them only (for the user, password, database and options); undefined for a URL with one.
 */
export function severalHostsOf(
  url: string,
): { hosts: DatabaseHost[]; oneHostUrl: string } | undefined {
  // The rest starts at the first of / ? #: the host list and it cannot trade characters, so a
  // long URL that does not match fails in linear time (issue 52; `(.*)$` after `[^/?#]*` was
  // quadratic).
  const match = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)([/?#].*)?$/.exec(url);
  if (!match) return undefined;
  const [, scheme, userInfo = '', hostList = '', rest = ''] = match;
  const parts = hostList.split(',');
  if (parts.length < 2) return undefined;
  const hosts = parts.map((part) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(part);
    const plain = /^([^:]+)(?::(\d+))?$/.exec(part);
    const found = bracketed ?? plain;
    if (!found || !found[1]) throw new Error(`"${part}" is not host[:port]`);
    const port = found[2] === undefined ? DEFAULT_PORT : Number(found[2]);
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      throw new Error(`"${part}": bad port`);
    return { host: found[1], port };
  });
  // target_session_attrs is libpq's; here it is what every host choice does anyway.
  const withoutAttrs = rest
    .replace(/([?&])target_session_attrs=[^&#]*&?/, '$1')
    .replace(/[?&]$/, '');
  return { hosts, oneHostUrl: `${scheme}${userInfo}${parts[0]}${withoutAttrs}` };
}

/**
 * A pool's options for a URL of several hosts: the connection settings of the URL, and a Client
 * that follows the primary; undefined for a URL of one host.
 */
export function primaryFollowingOptions(
  url: string,
  monitorUrl?: string,
  onMonitorUnreachable?: () => void,
): { connection: pg.ClientConfig; Client: typeof pg.Client; locator: PrimaryLocator } | undefined {
  const several = severalHostsOf(url);
  if (!several) return undefined;
  const connection = parseIntoClientConfig(several.oneHostUrl);
  const monitor = monitorUrl ? new FailoverMonitor(monitorUrl) : undefined;
  const locator = new PrimaryLocator(several.hosts, connection, monitor, onMonitorUnreachable);
  return { connection, Client: primaryClient(locator), locator };
}

/**
 * Which of the hosts takes writes now, found again on demand; with the pair's monitor, the one
 * the monitor makes primary (failover-monitor.ts).
 */
export class PrimaryLocator {
  private current: DatabaseHost;
  private probing: Promise<void> | undefined;
  private readonly hosts: readonly DatabaseHost[];
  private readonly connection: pg.ClientConfig;
  private readonly monitor: FailoverMonitor | undefined;
  private readonly onMonitorUnreachable: (() => void) | undefined;
  /** The host the monitor confirmed since the last search: its connections ask no more. */
  private confirmed: DatabaseHost | undefined;
  private asking: { host: DatabaseHost; verdict: Promise<MonitorVerdict> } | undefined;

  constructor(
    hosts: readonly DatabaseHost[],
    connection: pg.ClientConfig,
    monitor?: FailoverMonitor,
    onMonitorUnreachable?: () => void,
  ) {
    this.hosts = hosts;
    this.connection = connection;
    this.current = hosts[0]!;
    this.monitor = monitor;
    this.onMonitorUnreachable = onMonitorUnreachable;
  }

  /**
   * Whether a new connection to `host` (which takes writes) may write: without a monitor, yes;
   * with one, its verdict, asked once per host found (one question at a time). A monitor that
   * does not answer lets writes go on to the node that takes them, as pg_auto_failover lets a
   * primary that lost its monitor go on serving: the server does not add an outage of its own.
   */
  async mayWrite(host: DatabaseHost): Promise<MonitorVerdict> {
    if (!this.monitor || this.confirmed === host) return 'primary';
    if (this.asking?.host !== host) {
      const asking = { host, verdict: this.monitor.verdict(host) };
      this.asking = asking;
      void asking.verdict.finally(() => {
        if (this.asking === asking) this.asking = undefined;
      });
    }
    const verdict = await this.asking.verdict;
    if (verdict === 'unreachable') this.onMonitorUnreachable?.();
    if ((verdict === 'primary' || verdict === 'unreachable') && this.current === host)
      this.confirmed = host;
    return verdict;
  }

  /** The host new connections go to. */
  get primary(): DatabaseHost {
    return this.current;
  }

  /**
   * Probes the hosts in turn, the others before the current one, until one takes writes or
   * `giveUpMs` passes; one probe at a time however many connections ask.
   */
  find(giveUpMs = 60_000): Promise<void> {
    // A reconnect: the next connection asks the monitor again.
    this.confirmed = undefined;
    this.probing ??= this.probe(giveUpMs).finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probe(giveUpMs: number): Promise<void> {
    const deadline = Date.now() + giveUpMs;
    const order = [...this.hosts.filter((h) => h !== this.current), this.current];
    while (Date.now() < deadline) {
      for (const host of order) {
        if (!(await takesWrites(this.connection, host))) continue;
        // A node that takes writes but that the monitor does not make primary: an old primary
        // not yet demoted. Two claiming it: chosen, and its connections refused until it ends.
        if (this.monitor && (await this.monitor.verdict(host)) === 'not-primary') continue;
        this.current = host;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
    }
  }
}

/** Whether the connected host takes writes (libpq's target_session_attrs=read-write test). */
async function writable(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ readOnly: string }>(
    `select current_setting('transaction_read_only') as "readOnly"`,
  );
  return rows[0]?.readOnly === 'off';
}

async function takesWrites(connection: pg.ClientConfig, { host, port }: DatabaseHost) {
  const client = new pg.Client({
    ...connection,
    host,
    port,
    connectionTimeoutMillis: PROBE_CONNECT_MS,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await writable(client);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection refused because its host does not take writes (a standby, or one demoting). */
export class NotPrimaryError extends Error {
  // 57P03 (cannot connect now): what src/db/connection/connection-loss.ts calls unavailable.
  readonly code = '57P03';
}

/**
 * node-postgres's Client for a pool (its `Client` option) that connects to the locator's
 * primary and checks it takes writes; a failure to connect, a standby, or a connection that
 * breaks later has the locator look for the primary again.
 */
export function primaryClient(locator: PrimaryLocator): typeof pg.Client {
  return class PrimaryClient extends pg.Client {
    /** The host this connection goes to, the locator's primary when it was made. */
    private readonly primary: DatabaseHost;

    constructor(config?: string | pg.ClientConfig) {
      const options = typeof config === 'string' ? { connectionString: config } : (config ?? {});
      const { host, port } = locator.primary;
      super({ ...options, connectionString: undefined, host, port });
      this.primary = locator.primary;
      this.on('error', () => void locator.find());
    }

    // node-postgres declares connect() twice: a promise, or a callback (what its pool uses).
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      const connected = this.connectToPrimary().then(() => this);
      if (!callback) return connected;
      connected.then(
        () => callback(null as unknown as Error),
        (error: Error) => callback(error),
      );
    }

    private async connectToPrimary(): Promise<void> {
      try {
        await super.connect();
      } catch (error) {
        void locator.find();
        throw error;
      }
      if (!(await writable(this))) {
        void locator.find();
        await this.end().catch(() => {});
        throw new NotPrimaryError(
          'The database host does not take writes (a standby); looking for the primary.',
        );
      }
      const verdict = await locator.mayWrite(this.primary);
      if (verdict === 'not-primary' || verdict === 'two-primaries') {
        void locator.find();
        await this.end().catch(() => {});
        throw new NotPrimaryError(
          verdict === 'two-primaries'
            ? 'Two database nodes claim to be the primary; writes wait until the monitor settles it.'
            : 'The failover monitor does not make this database host the primary; looking for it.',
        );
      }
    }
  };
}
