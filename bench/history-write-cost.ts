// The change history's cost on the item write path, through HTTP: item creates (POST) and item
// updates (PATCH of a random item's Title and a price) against one server on PostgreSQL, with the
// history's recording on and off in turns (record_changes replaced by a function that does
// nothing, then put back), in one sitting. Each round runs both modes, in alternating order.
//   BENCH_DATABASE_URL=postgres://… node bench/history-write-cost.ts
// BENCH_ROUNDS (default 3), BENCH_DURATION seconds per measurement (default 8),
// BENCH_CONNECTIONS (default 10), BENCH_ITEMS items to update (default 2000).
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { historySwitch } from './history-switch.ts';
import { call, startTenantServer } from './processes.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url)
  throw new Error('usage: BENCH_DATABASE_URL=postgres://… node bench/history-write-cost.ts');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 2000);

const { port, host, token, stop: stopServer } = await startTenantServer('history-writes');
const db = new pg.Client({ connectionString: url });
await db.connect();
try {
  const headers = {
    host,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const priceType = JSON.parse(
    (
      await call(
        port,
        'POST',
        '/private/catalog/pricetype',
        headers,
        JSON.stringify({ Description: 'Retail', PriceTypeSymbol: '€' }),
      )
    ).body,
  ) as { Id?: number };
  const ids: number[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const created = await call(
      port,
      'POST',
      '/private/catalog/item',
      headers,
      JSON.stringify({ Title: `History bench ${i}`, SKU: `hb-${i}-${randomUUID()}` }),
    );
    ids.push((JSON.parse(created.body) as { Id: number }).Id);
  }
  const setHistory = await historySwitch(async (text) => (await db.query(text)).rows as unknown[]);

  const run = async (kind: 'create' | 'update') => {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: kind === 'create' ? 'POST' : 'PATCH',
          path: '/private/catalog/item',
          headers,
          setupRequest: (request) => {
            const unique = randomUUID();
            if (kind === 'create')
              return {
                ...request,
                body: JSON.stringify({ Title: `Bench ${unique}`, SKU: `hbc-${unique}` }),
              };
            const id = ids[Math.floor(Math.random() * ids.length)]!;
            return {
              ...request,
              path: `/private/catalog/item/${id}`,
              body: JSON.stringify({
                Title: `Bench ${unique}`,
                ...(priceType.Id
                  ? {
                      Prices: [
                        {
                          PriceTypeId: priceType.Id,
                          NormalPrice: Math.round(Math.random() * 1e4) / 100,
                        },
                      ],
                    }
                  : {}),
              }),
            };
          },
        },
      ],
    });
    return { rps: result.requests.average, non2xx: result.non2xx };
  };

  const figures = {
    create: { on: [] as number[], off: [] as number[] },
    update: { on: [] as number[], off: [] as number[] },
  };
  let non2xx = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const on of order) {
      await setHistory(on);
      for (const kind of ['create', 'update'] as const) {
        const { rps, non2xx: bad } = await run(kind);
        non2xx += bad;
        figures[kind][on ? 'on' : 'off'].push(rps);
        console.log(
          `round ${round + 1} history ${on ? 'on ' : 'off'} ${kind}: ${rps.toFixed(0)} req/s`,
        );
      }
    }
  }
  await setHistory(true);
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `\nreq/s, median of ${ROUNDS} rounds of ${DURATION} s at ${CONNECTIONS} connections (${non2xx} non-2xx):`,
  );
  for (const kind of ['create', 'update'] as const) {
    const on = median(figures[kind].on);
    const off = median(figures[kind].off);
    console.log(
      `  item ${kind}: with history ${on.toFixed(0)}, without ${off.toFixed(0)}: ratio ${(on / off).toFixed(2)}`,
    );
  }
} finally {
  await db.end();
  await stopServer();
}
