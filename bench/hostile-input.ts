// What hostile input costs the server (issue 46): a 1 MiB body that breaks a schema half a million
// times against one that breaks it once (answer bytes, time, heap growth), and a search under a
// deep chain of categories (the chain made straight in the table, as one made before the depth
// limit would be), with the category tree's answer at that depth; and the review's case of issue
// 43, 10,000 invalid prices in 0.5 MB against one error in as many bytes.
// Usage: node bench/hostile-input.ts [chain depth, default 5000]  (DATABASE_URL: PostgreSQL;
// BENCH_ONLY=categories or errors: those only)
import { withInProcessTenant } from './in-process-tenant.ts';

const depth = Number(process.argv[2] ?? 5000);
await withInProcessTenant('hostile', async ({ app, database, host, tenantId, token }) => {
  const management = await token();
  const publicOnly = await token('public');

  const measure = async (name: string, url: string, bearer: string, payload: string) => {
    const send = () =>
      app.inject({
        method: 'POST',
        url,
        headers: { host, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload,
      });
    await send();
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 5);
    const times: number[] = [];
    let response = await send();
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      response = await send();
      times.push(performance.now() - started);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    clearInterval(sampler);
    times.sort((a, b) => a - b);
    console.log(
      `${name}: ${response.statusCode}, ${response.rawPayload.length} bytes, ` +
        `median ${times[2]!.toFixed(1)} ms, heap peak +${((peak - heapBefore) / 2 ** 20).toFixed(0)} MiB ` +
        `(body ${(payload.length / 2 ** 20).toFixed(2)} MiB)`,
    );
  };
  const ones = (count: number) => Array.from({ length: count }, () => 1);
  const many = 524_236;
  if (process.env.BENCH_ONLY !== 'categories') {
    await measure(
      'item, one error',
      '/private/catalog/item',
      management,
      JSON.stringify({ Title: 'x'.repeat(1_048_000), Prices: 1 }),
    );
    await measure(
      `item, one error, ${many} numbers (the same parse)`,
      '/private/catalog/item',
      management,
      JSON.stringify({ Title: 'x', Padding: ones(many) }),
    );
    await measure(
      `item, ${many} errors`,
      '/private/catalog/item',
      management,
      JSON.stringify({ Title: 'x', Prices: ones(many) }),
    );
    // The review's case of issue 43: 0.5 MB with 10,000 invalid prices against one error.
    await measure(
      'item, one error (0.5 MB)',
      '/private/catalog/item',
      management,
      JSON.stringify({ Title: 'x'.repeat(510_000), Prices: 1 }),
    );
    await measure(
      'item, 10,000 invalid prices (0.5 MB)',
      '/private/catalog/item',
      management,
      JSON.stringify({
        Title: 'x',
        Prices: Array.from({ length: 10_000 }, () => ({ PriceTypeId: 'x'.repeat(40) })),
      }),
    );
    await measure(
      'analytics logs (public scope), one error',
      '/analytics/logs',
      publicOnly,
      JSON.stringify([{ Counter: 'x'.repeat(1_048_000) }]),
    );
    await measure(
      `analytics logs (public scope), one error, ${many} numbers (the same parse)`,
      '/analytics/logs',
      publicOnly,
      JSON.stringify([{ Counter: 'ItemView', Padding: ones(many) }]),
    );
    await measure(
      `analytics logs (public scope), ${many} errors`,
      '/analytics/logs',
      publicOnly,
      JSON.stringify(ones(many)),
    );
  }

  if (process.env.BENCH_ONLY !== 'errors') await deepCategories();
  await app.close();
  async function deepCategories() {
    // A chain `depth` deep, made straight in the table.
    const t = tenantId;
    const [root] = await database.query<{ id: number }>(
      `insert into categories (tenant_id, name) values ($1, 'level 0') returning id`,
      [t],
    );
    let parent = root!.id;
    await database.rawTransaction(async (sql) => {
      for (let level = 1; level < depth; level++) {
        const [row] = await sql.query<{ id: number }>(
          'insert into categories (tenant_id, name, parent_id) values ($1, $2, $3) returning id',
          [t, `level ${level}`, parent],
        );
        parent = row!.id;
      }
    });
    // Items in the chain's root and leaf, so that the search reads the subtree.
    for (const categoryId of [root!.id, parent])
      await app.inject({
        method: 'POST',
        url: '/private/catalog/item',
        headers: { host, authorization: `Bearer ${management}` },
        payload: { Title: `item in ${categoryId}`, CategoryId: categoryId },
      });
    const timed = async (
      name: string,
      run: () => Promise<{ statusCode: number; rawPayload: Buffer }>,
    ) => {
      let response = await run();
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        response = await run();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name}: ${response.statusCode}, ${response.rawPayload.length} bytes, median ${times[1]!.toFixed(0)} ms`,
      );
    };
    const headers = { host, authorization: `Bearer ${management}` };
    await timed(`search CategoryId = root of a ${depth}-deep chain`, () =>
      app.inject({
        method: 'POST',
        url: '/private/catalog/items',
        headers,
        payload: { CategoryId: root!.id },
      }),
    );
    await timed(`category tree, ${depth} deep`, () =>
      app.inject({ method: 'GET', url: '/private/catalog/categories', headers }),
    );
  }
});
