// What a 1 MiB body of nested arrays costs against a flat one of the same size (issue 52): CPU per
// request (process.cpuUsage around N in-process requests), on /oauth/token without credentials
// and on a JSON management route, POST /private/catalog/item.
// Usage: node bench/nested-json.ts [requests per body, default 20]  (DATABASE_URL: PostgreSQL)
import { withInProcessTenant } from './in-process-tenant.ts';

const requests = Number(process.argv[2] ?? 20);
const MIB = 1 << 20;
await withInProcessTenant('nested', async ({ app, host, token: tokenOf }) => {
  const token = await tokenOf();

  // Each just under the 1 MiB body limit.
  const size = MIB - 16;
  const bodies = {
    nested: '['.repeat(size / 2) + ']'.repeat(size / 2),
    'flat array': `[${'0,'.repeat((size - 3) / 2)}0]`,
    'flat string': JSON.stringify({ Title: 'x'.repeat(size - 12) }),
  };
  const routes = [
    { name: '/oauth/token (no credentials)', url: '/oauth/token', headers: {} },
    {
      name: 'POST /private/catalog/item',
      url: '/private/catalog/item',
      headers: { authorization: `Bearer ${token}` },
    },
  ];
  for (const route of routes)
    for (const [kind, payload] of Object.entries(bodies)) {
      const send = () =>
        app.inject({
          method: 'POST',
          url: route.url,
          headers: { host, 'content-type': 'application/json', ...route.headers },
          payload,
        });
      let response = await send();
      const before = process.cpuUsage();
      for (let i = 0; i < requests; i++) response = await send();
      const used = process.cpuUsage(before);
      const ms = (used.user + used.system) / 1000 / requests;
      console.log(
        `${route.name}, ${kind} (${(payload.length / MIB).toFixed(2)} MiB): ${response.statusCode} ` +
          `${JSON.stringify(response.json<Record<string, unknown>>()).slice(0, 60)}, ${ms.toFixed(2)} ms CPU per request`,
      );
    }
  await app.close();
});
