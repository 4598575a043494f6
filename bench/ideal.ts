// The "ideal" baseline: a bare Fastify process on the same engine and driver as the server,
// answering GET /items/:id with one prepared primary-key select on a 100k-row table. It is the
// in-run ceiling for a read that touches the database.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PgliteStatements } from '../src/db/connection/pglite-statements.ts';

const ROWS = 100_000;
const SEED = `
  create table if not exists bench_ideal_items (id integer primary key, sku text not null, name text not null, price numeric(12,2) not null);
  insert into bench_ideal_items select i, 'SKU-' || i, 'Item ' || i, (i % 1000) + 0.99
    from generate_series(1, ${ROWS}) i on conflict do nothing;`;
const SELECT = 'select id, sku, name, price from bench_ideal_items where id = $1';

interface Lookup {
  find(id: number): Promise<unknown>;
  close(): Promise<void>;
}

async function openLookup(): Promise<Lookup> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    await pool.query(SEED);
    return {
      find: async (id) =>
        (await pool.query({ name: 'ideal_item_by_id', text: SELECT, values: [id] }))
          .rows[0] as unknown,
      close: () => pool.end(),
    };
  }
  // The bench passes one directory for all its rounds: the table is seeded once.
  const dir =
    process.env.BENCH_IDEAL_DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'omni-ideal-')));
  const db = new PGlite(path.join(dir, 'pgdata'));
  await db.exec(SEED);
  // Prepared as the server prepares its hot statements on PGlite.
  const statements = new PgliteStatements(db);
  return {
    find: async (id) => (await statements.query('ideal_item_by_id', SELECT, [id]))[0],
    close: () => db.close(),
  };
}

const lookup = await openLookup();
const app = Fastify();
app.get<{ Params: { id: string } }>('/items/:id', async (request, reply) => {
  const row = await lookup.find(Number(request.params.id));
  if (!row) return reply.code(404).send({ Code: 'NotFound' });
  return row;
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address() as { port: number };
console.log(JSON.stringify({ listening: address.port }));
// Closed cleanly on SIGTERM: the next round opens the same embedded database.
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => lookup.close())
    .then(() => process.exit(0));
});
