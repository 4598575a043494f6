// What settles a COMMIT whose answer was lost on a failover pair (src/db/failover/commit-outcomes.ts): the
// primary is asked whether it holds the transaction's marker. Here on the run's PostgreSQL (and
// Citus's coordinator): transactions that committed, rolled back, or never existed, a database
// that does not answer within the wait, and old markers deleted. A real lost answer under load is the failover test's
// (test/reliability/failover.test.ts), which prints how many it met.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CommitOutcomes, type CommitOutcome } from '../../src/db/failover/commit-outcomes.ts';
import { isDatabaseUnavailable } from '../../src/db/connection/connection-loss.ts';
import { wrapPool, type DatabaseHandle } from '../../src/db/connection/database.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const onPostgres = inject('testDatabase').engine === 'postgres';

describe.skipIf(!onPostgres)('CommitOutcomes.committed', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const settled: CommitOutcome[] = [];
  let outcomes: CommitOutcomes;

  beforeAll(async () => {
    database = await openTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    outcomes = new CommitOutcomes(pool, 1_000, (outcome) => settled.push(outcome));
  });
  afterAll(async () => {
    await pool?.end();
    await database?.handle.close();
  });

  /** A transaction that wrote, ended with `end`; the marker it left before. */
  async function transactionEndedWith(end: 'commit' | 'rollback'): Promise<string> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('create temporary table if not exists outcome_probe (n int)');
      await client.query('insert into outcome_probe values (1)');
      const marker = await outcomes.mark(client);
      await client.query(end);
      return marker!;
    } finally {
      client.release();
    }
  }

  it('says committed for a transaction that committed, and tells its listener', async () => {
    const marker = await transactionEndedWith('commit');
    expect(await outcomes.committed(marker)).toBe(true);
    expect(settled.at(-1)).toMatchObject({ marker, status: 'committed' });
  });

  it('says not committed for one rolled back', async () => {
    const marker = await transactionEndedWith('rollback');
    expect(await outcomes.committed(marker)).toBe(false);
    expect(settled.at(-1)).toMatchObject({ marker, status: 'not committed' });
  });

  it('says not committed for a transaction the primary never had, whatever committed since', async () => {
    // What a promoted standby that never received the transaction holds: other transactions,
    // committed since (one of them may have been given the lost transaction's id).
    await transactionEndedWith('commit');
    const never = randomUUID();
    expect(await outcomes.committed(never)).toBe(false);
    expect(settled.at(-1)).toMatchObject({ marker: never, status: 'not committed' });
  });

  it.each(['commit', 'rollback'] as const)(
    'waits for a transaction still completing its commit (a standby slow to answer), which then ends with %s',
    async (end) => {
      // The marker's row is written but not yet visible, as while a primary waits for its
      // synchronous standby after the connection to it was cut: reading it then said "not
      // committed", and the client's retry stored the write a second time.
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('create temporary table if not exists outcome_probe (n int)');
        await client.query('insert into outcome_probe values (1)');
        const marker = (await outcomes.mark(client))!;
        let answer: boolean | undefined;
        const asking = outcomes.committed(marker).then((committed) => (answer = committed));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(answer).toBeUndefined();
        await client.query(end);
        expect(await asking).toBe(end === 'commit');
        expect(settled.at(-1)).toMatchObject({
          marker,
          status: end === 'commit' ? 'committed' : 'not committed',
        });
      } finally {
        client.release();
      }
    },
  );

  it('says unknown, never "not committed", when the question itself fails', async () => {
    const failing = new CommitOutcomes(pool, 1_000, (outcome) => settled.push(outcome));
    // Not a marker's shape: the database refuses the question (not an unavailability).
    expect(await failing.committed('not-a-uuid')).toBe(false);
    expect(settled.at(-1)).toMatchObject({ marker: 'not-a-uuid', status: 'unknown' });
  });

  it('marks nothing for a transaction that wrote nothing', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('select 1');
      expect(await outcomes.mark(client)).toBeUndefined();
      await client.query('rollback');
    } finally {
      client.release();
    }
  });

  it('deletes markers past their ten minutes, and keeps the others', async () => {
    const recent = await transactionEndedWith('commit');
    const old = randomUUID();
    await pool.query(
      "insert into commit_markers (token, marked_at) values ($1, now() - interval '11 minutes')",
      [old],
    );
    expect(await outcomes.prune()).toBeGreaterThanOrEqual(1);
    expect(await outcomes.committed(old)).toBe(false);
    expect(await outcomes.committed(recent)).toBe(true);
  });

  it('gives up as unknown when no primary answers within the wait', async () => {
    // A port nothing listens on: every question is refused, as while no node takes writes.
    const nowhere = new pg.Pool({
      host: '127.0.0.1',
      port: 9,
      user: 'postgres',
      connectionTimeoutMillis: 500,
    });
    nowhere.on('error', () => {});
    const waiting = new CommitOutcomes(nowhere, 600, (outcome) => settled.push(outcome));
    try {
      const marker = randomUUID();
      expect(await waiting.committed(marker)).toBe(false);
      expect(settled.at(-1)).toMatchObject({ marker, status: 'unknown' });
    } finally {
      await nowhere.end();
    }
  });
});

describe.skipIf(!onPostgres)('a write transaction whose COMMIT answer is lost', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const settled: CommitOutcome[] = [];
  /** What the next COMMIT's connection does: its answer lost, or the connection lost before it. */
  let nextCommit: 'answer lost' | 'connection lost' | 'normal' = 'normal';

  // A client whose socket is cut at the chosen moment of a COMMIT, as a primary killed then
  // would cut it.
  class CuttingClient extends pg.Client {
    override query(...args: unknown[]): never {
      const socket = (this as unknown as { connection: { stream: { destroy(): void } } }).connection
        .stream;
      if (args[0] === 'commit' && nextCommit === 'connection lost') {
        nextCommit = 'normal';
        socket.destroy();
      }
      const running = (super.query as (...a: unknown[]) => unknown).apply(this, args);
      if (args[0] === 'commit' && nextCommit === 'answer lost') {
        nextCommit = 'normal';
        // The server commits; its answer never reaches the caller, whose connection is gone
        // instead (what a primary killed between its standby's ack and its reply does). Cutting
        // the socket at a moment in between raced the answer on a loaded host.
        return (running as Promise<unknown>).then(() => {
          socket.destroy();
          throw new Error('Connection terminated unexpectedly');
        }) as never;
      }
      return running as never;
    }
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 2, Client: CuttingClient });
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const outcomes = new CommitOutcomes(pool, 5_000, (outcome) => settled.push(outcome));
    handle = wrapPool(pool, database.url, outcomes);
    await handle.exec('create table if not exists lost_answers (tenant_id int, note text)');
  });
  afterAll(async () => {
    await handle?.close();
    await database?.handle.close();
  });

  const stored = async (note: string) =>
    (
      await database.handle.query<{ n: number }>(
        'select count(*)::int as n from lost_answers where note = $1',
        [note],
      )
    )[0]!.n;

  it('offers its markers to the scheduled pruning only where it keeps them (a failover pair)', async () => {
    expect(handle.pruneCommitMarkers).toBeTypeOf('function');
    expect(await handle.pruneCommitMarkers!()).toBeGreaterThanOrEqual(0);
    expect(database.handle.pruneCommitMarkers).toBeUndefined();
  });

  it('answers as done when the transaction committed', async () => {
    nextCommit = 'answer lost';
    const result = await handle.rawTransaction(async (sql) => {
      await sql.query('insert into lost_answers values (1, $1)', ['committed']);
      return 'done';
    });
    expect(result).toBe('done');
    expect(settled.at(-1)?.status).toBe('committed');
    expect(await stored('committed')).toBe(1);
  });

  it('fails as unavailable when it did not commit', async () => {
    nextCommit = 'connection lost';
    await expect(
      handle.rawTransaction((sql) =>
        sql.query('insert into lost_answers values (1, $1)', ['not committed']),
      ),
    ).rejects.toSatisfy(isDatabaseUnavailable);
    expect(settled.at(-1)?.status).toBe('not committed');
    expect(await stored('not committed')).toBe(0);
  });

  it('settles a statement that writes outside a transaction the same way', async () => {
    nextCommit = 'answer lost';
    await handle.query('insert into lost_answers values (1, $1)', ['one statement']);
    expect(settled.at(-1)?.status).toBe('committed');
    expect(await stored('one statement')).toBe(1);
  });
});
