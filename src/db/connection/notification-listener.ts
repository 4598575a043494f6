// LISTEN on a connection of its own (a pooled one goes back to the pool, and its LISTEN with it),
// made the way the pool makes its connections, so that on a failover pair it goes to the host
// that takes writes (primary-hosts.ts), where the NOTIFYs are sent. When the connection breaks
// or ends, the listener says so and connects again after a pause, until it is closed; a first
// connection that fails is tried again the same way, so a start never waits on it. Meanwhile
// nothing is announced: whoever listens must look for itself (the webhook dispatcher polls).
import type pg from 'pg';

export interface ListenHandlers {
  /** A NOTIFY came on the channel. */
  notified(): void;
  /** Listening, first or again: what committed while not listening was not announced. */
  listening?(): void;
  /** The connection was lost or could not be made; it is tried again after a pause. */
  lost?(error: Error): void;
}

export interface ListenOptions {
  /** The pause before connecting again after a loss. */
  retryMs?: number;
}

/** Stops listening and closes the connection. */
export type Unlisten = () => Promise<void>;

const DEFAULT_RETRY_MS = 1_000;

/** Listens on `channel` through connections `connect` makes (not yet connected). */
export function listenWith(
  connect: () => pg.Client,
  channel: string,
  handlers: ListenHandlers,
  options: ListenOptions = {},
): Unlisten {
  const listener = new Listener(connect, channel, handlers, options.retryMs ?? DEFAULT_RETRY_MS);
  void listener.open();
  return () => listener.close();
}

class Listener {
  private readonly connect: () => pg.Client;
  private readonly channel: string;
  private readonly handlers: ListenHandlers;
  private readonly retryMs: number;
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    connect: () => pg.Client,
    channel: string,
    handlers: ListenHandlers,
    retryMs: number,
  ) {
    this.connect = connect;
    this.channel = channel;
    this.handlers = handlers;
    this.retryMs = retryMs;
  }

  async open(): Promise<void> {
    this.retry = undefined;
    if (this.closed) return;
    const client = this.connect();
    let gone = false;
    const lose = (error: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.handlers.lost?.(error);
      this.retry = setTimeout(() => void this.open(), this.retryMs);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('The listening connection ended.')));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.notified();
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
    } catch (error) {
      lose(error as Error);
      return;
    }
    if (gone) return;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.handlers.listening?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}
