// The database's own cost of recording events on the item write path, without HTTP: N updates
// of random items of one tenant, one transaction each, on one connection, with the items'
// event triggers disabled and enabled in turns (BENCH_ROUNDS, default 3). PostgreSQL only:
//   BENCH_DATABASE_URL=postgres://… node bench/event-trigger-cost.ts <tenant> [updates]
// The tenant needs items (bench/seed-catalog.ts); the connection must be allowed to alter items.
import pg from 'pg';

const [tenantName, countText] = process.argv.slice(2);
const url = process.env.BENCH_DATABASE_URL;
if (!tenantName || !url)
  throw new Error(
    'usage: BENCH_DATABASE_URL=… node bench/event-trigger-cost.ts <tenant> [updates]',
  );
const UPDATES = Number(countText ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const [range] = (
    await client.query<{ tenant: number; min: number; max: number }>(
      `select t.id as tenant, min(i.id) as min, max(i.id) as max from tenants t join items i on i.tenant_id = t.id
        where t.name = $1 group by t.id`,
      [tenantName],
    )
  ).rows;
  if (!range) throw new Error(`tenant ${tenantName} has no items`);
  const setTriggers = async (enabled: boolean) => {
    for (const op of ['inserted', 'updated', 'deleted'])
      await client.query(
        `alter table items ${enabled ? 'enable' : 'disable'} trigger items_events_${op}`,
      );
  };
  const timed = async () => {
    const started = performance.now();
    for (let i = 0; i < UPDATES; i++) {
      const id = range.min + Math.floor(Math.random() * (range.max - range.min + 1));
      await client.query({
        name: 'bench_item_update',
        text: 'update items set title = $3 where tenant_id = $1 and id = $2',
        values: [range.tenant, id, `Bench ${i}`],
      });
    }
    return ((performance.now() - started) * 1000) / UPDATES;
  };
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await setTriggers(false);
    off.push(await timed());
    await setTriggers(true);
    on.push(await timed());
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const f = (values: number[]) => values.map((v) => Math.round(v)).join(' ');
  console.log(
    `µs per item update (one transaction each), ${UPDATES} updates per run, median of ${ROUNDS}:`,
  );
  console.log(`  without event triggers: ${Math.round(median(off))} (${f(off)})`);
  console.log(`  with event triggers:    ${Math.round(median(on))} (${f(on)})`);
} finally {
  await setTriggersSafe();
  await client.end();
}

async function setTriggersSafe() {
  for (const op of ['inserted', 'updated', 'deleted'])
    await client
      .query(`alter table items enable trigger items_events_${op}`)
      .catch(() => undefined);
}
