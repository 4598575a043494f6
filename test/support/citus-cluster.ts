// Databases on a Citus cluster for the suite (TEST_DATABASE_URL at a Citus coordinator): a Citus
// database lives on every node, so each one the suite makes (the run's template, a file's copy of
// it, an empty one) is made and dropped on the coordinator and on every worker alike. A copy of a
// distributed database made node by node from the same template is a distributed database of
// its own: its metadata names the same nodes and shard ids, and Citus connects to the database of
// the coordinator's name on each worker.
import pg from 'pg';
import { databaseUrlFor } from './database-url.ts';

export interface ClusterNode {
  host: string;
  port: number;
}

/** The workers registered in the database at `url`, or undefined when it is not a Citus database. */
export async function citusWorkers(url: string): Promise<ClusterNode[] | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [citus] = (
      await client.query<{ found: boolean }>(
        "select exists (select 1 from pg_extension where extname = 'citus') as found",
      )
    ).rows;
    if (!citus?.found) return undefined;
    const { rows } = await client.query<{ host: string; port: number }>(
      'select nodename as host, nodeport as port from pg_dist_node where groupid <> 0 order by nodeid',
    );
    return rows;
  } finally {
    await client.end();
  }
}

function nodeUrl(coordinatorUrl: string, node: ClusterNode | undefined, database: string): string {
  const parsed = new URL(databaseUrlFor(coordinatorUrl, database));
  if (node) {
    parsed.hostname = node.host;
    parsed.port = String(node.port);
  }
  return parsed.toString();
}

async function onNode<T>(
  coordinatorUrl: string,
  node: ClusterNode | undefined,
  database: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: nodeUrl(coordinatorUrl, node, database) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Every node of the cluster: the coordinator (undefined: the URL's own host) and the workers. */
function allNodes(workers: readonly ClusterNode[]): (ClusterNode | undefined)[] {
  return [undefined, ...workers];
}

/**
 * Makes `name` on every node: a copy of `template` (a database of the cluster made by this file,
 * closed to connections), or else an empty Citus database with the workers added — or, with
 * `citus: false`, an empty database with no Citus in it yet (a single PostgreSQL's, see
 * enableCitus).
 */
export async function createClusterDatabase(
  coordinatorUrl: string,
  workers: readonly ClusterNode[],
  name: string,
  template?: string,
  { citus = true }: { citus?: boolean } = {},
): Promise<void> {
  await Promise.all(
    allNodes(workers).map((node) =>
      onNode(coordinatorUrl, node, 'postgres', (client) =>
        client.query(`create database ${name} template ${template ?? 'template0'}`),
      ),
    ),
  );
  if (!template && citus) await enableCitus(coordinatorUrl, workers, name);
}

/** Makes `name` a Citus database: the extension on every node, the workers added. */
export async function enableCitus(
  coordinatorUrl: string,
  workers: readonly ClusterNode[],
  name: string,
): Promise<void> {
  await Promise.all(
    allNodes(workers).map((node) =>
      onNode(coordinatorUrl, node, name, (client) =>
        client.query('create extension if not exists citus'),
      ),
    ),
  );
  const coordinator = new URL(coordinatorUrl);
  await onNode(coordinatorUrl, undefined, name, async (client) => {
    await client.query('select citus_set_coordinator_host($1, $2)', [
      coordinator.hostname,
      Number(coordinator.port || 5432),
    ]);
    for (const worker of workers) await addNode(client, worker);
  });
}

/**
 * citus_add_node, tried again when the coordinator could not reach the worker: on a loaded
 * two-core host a new database's first connection to a worker has failed once in a CI run
 * ("failure on connection marked as essential"). Adding a node is one transaction on the
 * coordinator and adding one already there returns its id, so a retry is safe.
 */
async function addNode(client: pg.Client, worker: ClusterNode): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query('select citus_add_node($1, $2)', [worker.host, worker.port]);
      return;
    } catch (error) {
      const unreachable = error instanceof Error && /failure on connection/i.test(error.message);
      if (!unreachable || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 1000));
    }
  }
}

/**
 * Closes `name` to connections on every node so that it can serve as a template: Citus's
 * maintenance daemon keeps a connection to every Citus database, and a template must have none.
 */
export async function closeClusterDatabase(
  coordinatorUrl: string,
  workers: readonly ClusterNode[],
  name: string,
): Promise<void> {
  await Promise.all(
    allNodes(workers).map((node) =>
      onNode(coordinatorUrl, node, 'postgres', async (client) => {
        await client.query(`alter database ${name} allow_connections false`);
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
      }),
    ),
  );
}

export async function dropClusterDatabase(
  coordinatorUrl: string,
  workers: readonly ClusterNode[],
  name: string,
): Promise<void> {
  // The coordinator first: its connections to the workers' copies end with it. Citus's
  // maintenance daemon may connect again between the force's terminations and the drop ("being
  // accessed by other users"): a few tries, a moment apart.
  for (const node of allNodes(workers))
    for (let attempt = 1; ; attempt++) {
      try {
        await onNode(coordinatorUrl, node, 'postgres', (client) =>
          client.query(`drop database if exists ${name} with (force)`),
        );
        break;
      } catch (error) {
        if (attempt >= 10 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
}
