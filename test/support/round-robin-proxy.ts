// An HTTP proxy on loopback that sends each request to the next of several servers in turn, as a
// load balancer in front of several instances would.
import { createServer, request, type Server } from 'node:http';

export interface RoundRobinProxy {
  port: number;
  /** How many requests each target answered. */
  served: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served = targets.map(() => 0);
  const server: Server = createServer((incoming, outgoing) => {
    const index = next++ % targets.length;
    served[index]!++;
    const forwarded = request(
      {
        host: '127.0.0.1',
        port: targets[index],
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      outgoing.writeHead(502).end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
