// A real webhook receiver on loopback for the events tests: it records every request (headers
// and raw body) and answers as the test tells it (a status, a delay, or no answer at all).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How to answer one request: a status, optionally after a delay or with a body; 'hang' never
 *  answers. Without a body, a status of 300 or more answers `status {status}`. */
export type Answer =
  | number
  | { status: number; delayMs?: number; headers?: Record<string, string>; body?: string }
  | 'hang';

export class WebhookReceiver {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private answers: Answer[] = [];
  /** Answers for requests to one path only, before the queue of any path. */
  private answersAt = new Map<string, Answer[]>();
  /** The answer once the queued ones are used up. */
  fallback: Answer = 204;
  private waiters = new Set<() => void>();

  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        for (const waiter of [...this.waiters]) waiter();
        const answer =
          this.answersAt.get(req.url ?? '')?.shift() ?? this.answers.shift() ?? this.fallback;
        if (answer === 'hang') return;
        const {
          status,
          delayMs = 0,
          headers = {},
          body = status >= 300 ? `status ${status}` : '',
        } = typeof answer === 'number' ? { status: answer } : answer;
        setTimeout(() => res.writeHead(status, headers).end(body), delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Queues the answers of the next requests, in order. */
  answerNext(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /**
   * Queues the answers of the next requests to `path` alone: a late retry of another test's
   * delivery, to the common path, cannot take them.
   */
  answerNextAt(path: string, ...answers: Answer[]): void {
    this.answersAt.set(path, [...(this.answersAt.get(path) ?? []), ...answers]);
  }

  /** The requests received, parsed. */
  events(): {
    Id: string;
    Type: string;
    TenantId: string;
    ResourceId: string;
    Data: Record<string, unknown>;
  }[] {
    return this.received.map((r) => JSON.parse(r.body) as never);
  }

  /** Waits until `count` requests have come (fails after timeoutMs). */
  waitFor(count: number, timeoutMs = 20_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`received ${this.received.length} of ${count} webhooks in ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const check = () => {
        if (this.received.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  reset(): void {
    this.received.length = 0;
    this.answers = [];
    this.fallback = 204;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** A clock that tests move forward. */
export class TestClock {
  offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Polls `check` until it returns a value that is not undefined (fails after timeoutMs). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
