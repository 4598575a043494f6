// The embedded database: PGlite with the extensions the migrations use, its data in
// DATA_DIR/pgdata, held by one process at a time (embedded-lock.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { changeContextStatements, currentChangeContext } from '../changes/change-context.ts';
import { WRITING_STATEMENT, type DatabaseHandle, type RawSql } from './database.ts';
import { acquireDataDirLock } from './embedded-lock.ts';
import type { ListenHandlers } from './notification-listener.ts';
import { PgliteStatements } from './pglite-statements.ts';

export const PGLITE_EXTENSIONS = {
  pg_trgm,
  unaccent,
  btree_gin,
  btree_gist,
  fuzzystrmatch,
  cube,
  earthdistance,
};

export function wrapPglite(
  client: PGlite,
  onClose: () => Promise<void> = async () => {},
): DatabaseHandle {
  const statements = new PgliteStatements(client);
  const handle: DatabaseHandle = {
    engine: 'pglite',
    url: undefined,
    // One process, one connection: its commits wait for nothing another pool could skip.
    get asyncCommit() {
      return handle;
    },
    async execRows(script: string) {
      const results = await client.exec(script);
      return results.at(-1)?.rows ?? [];
    },
    async query<Row>(text: string, params: unknown[] = []) {
      // A write names its actor (change-context.ts), which a transaction carries.
      if (currentChangeContext() && WRITING_STATEMENT.test(text))
        return handle.rawTransaction((sql) => sql.query<Row>(text, params));
      const result = await client.query<Row>(text, params);
      return result.rows;
    },
    prepared<Row>(name: string, text: string, params: unknown[]) {
      if (currentChangeContext() && WRITING_STATEMENT.test(text))
        return handle.rawTransaction((sql) => sql.query<Row>(text, params));
      return statements.query<Row>(name, text, params);
    },
    async exec(script: string) {
      await client.exec(script);
    },
    rawTransaction<T>(fn: (sql: RawSql) => Promise<T>) {
      const context = currentChangeContext();
      return client.transaction(async (tx) => {
        if (context) await tx.exec(changeContextStatements(context));
        return fn({
          query: async <Row>(text: string, params: unknown[] = []) =>
            (await tx.query<Row>(text, params)).rows,
          prepared: async <Row>(_name: string, text: string, params: unknown[]) =>
            (await tx.query<Row>(text, params)).rows,
          exec: async (script: string) => {
            await tx.exec(script);
          },
        });
      });
    },
    async copyFrom(target: string, data: Uint8Array) {
      // PGlite has no COPY stream; it reads COPY data from the /dev/blob device instead.
      const copy = async (sql: Pick<PGlite, 'query'>) =>
        (
          await sql.query(`copy ${target} from '/dev/blob' (format binary)`, [], {
            blob: new Blob([data]),
          })
        ).affectedRows ?? 0;
      const context = currentChangeContext();
      if (!context) return copy(client);
      return client.transaction(async (tx) => {
        await tx.exec(changeContextStatements(context));
        return copy(tx);
      });
    },
    async listen(channel: string, handlers: ListenHandlers) {
      // One session writes and listens: a NOTIFY in the writing transaction holds up no other
      // commit, and PGlite hands it to the callback once that transaction commits.
      await client.exec("set omni.notify_after_commit = 'notify'");
      const unlisten = await client.listen(channel, () => handlers.notified());
      handlers.listening?.();
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async close() {
      if (!client.closed) await client.close();
      await onClose();
    },
  };
  return handle;
}

export async function openEmbeddedDatabase(
  dataDir: string,
  onLockLost: (error: Error) => void,
): Promise<DatabaseHandle> {
  await mkdir(dataDir, { recursive: true });
  const release = await acquireDataDirLock(dataDir, onLockLost);
  try {
    const client = new PGlite(path.join(dataDir, 'pgdata'), {
      extensions: PGLITE_EXTENSIONS,
    });
    await client.waitReady;
    return wrapPglite(client, release);
  } catch (error) {
    await release();
    throw error;
  }
}
