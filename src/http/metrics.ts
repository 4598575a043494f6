// GET /metrics: Prometheus text with request counts and latency by route and status. It tells
// about every tenant's traffic and the process, so it answers only clients whose address the
// operator allows (METRICS_ALLOWED_ADDRESSES, loopback by default; issue 46): others get the 404
// of a route that does not exist. Addresses, not Host names: a client chooses its Host header.
import { BlockList, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Whether a client address may read /metrics ('*': any). */
export function metricsAccess(allowed: string[] | '*'): (address: string) => boolean {
  if (allowed === '*') return () => true;
  const list = new BlockList();
  for (const entry of allowed) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}

export function registerMetrics(app: FastifyInstance, allowed: string[] | '*' = '*'): Registry {
  const mayRead = metricsAccess(allowed);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const latencyName = 'http_request_duration_seconds';
  const latency = new Histogram({
    name: latencyName,
    help: 'Time to answer HTTP requests, by method, route pattern and status code.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // One observation per request: the request count is the histogram's own count of each label
  // set, read out under the counter's name when /metrics is scraped.
  const counted = `${latencyName}_count`;
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames,
    registers: [registry],
    async collect() {
      // Read first, then reset and fill without yielding: two scrapes at once cannot interleave.
      const { values } = await latency.get();
      this.reset();
      for (const { metricName, labels, value } of values)
        if (metricName === counted) this.inc(labels, value);
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    // Route patterns, never raw URLs: ids in paths would explode the label cardinality.
    const labels = {
      method: request.method,
      route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      status: String(reply.statusCode),
    };
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request.ip))
      throw new ApiError(404, 'RouteNotFound', 'No operation answers GET /metrics.');
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
