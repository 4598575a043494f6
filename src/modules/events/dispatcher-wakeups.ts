// What wakes the webhook dispatcher when events commit, so that a webhook leaves at once instead
// of at the next poll (docs/reliability.md, "Webhooks sent at commit"):
//
// - PostgreSQL and the embedded database: LISTEN on the feed's channel. record_events asks for a
//   NOTIFY once its transaction commits (src/db/sql/015-notify-after-commit.sql), which reaches
//   every instance, whichever process wrote (the CLI's imports too); a rolled-back write sends
//   none. On PostgreSQL the listening connection is made again when lost, and a round runs once
//   it listens again, for what committed meanwhile; until then the dispatcher only polls.
// - Citus: the triggers run on the workers, and nothing a worker's session does reaches a
//   listener on the coordinator, so each instance wakes its own dispatcher after each of its own
//   writes commits (DatabaseHandle.afterCommit), whatever it wrote: one dispatcher delivers for
//   every tenant. Writes of other processes wait for a poll.
// - WEBHOOK_WAKE=poll: nothing wakes it; it polls only.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { hasCitus } from '../../db/citus/distribution.ts';
import { EVENT_FEED_CHANNEL } from './event-feed.ts';

export type WakeMode = 'commit' | 'poll';

export type WakeState = 'polling only' | 'connecting' | 'listening' | 'lost' | 'after own commits';

export interface WakeupOptions {
  mode: WakeMode;
  /** For the log: how often the dispatcher polls while no wake can come. */
  pollingIntervalMs: number;
  /** The pause before connecting again after the listening connection was lost. */
  retryMs?: number;
  log: () => FastifyBaseLogger | undefined;
}

/** What the wakes are for: running a dispatcher round soon, and whether wakes come now. */
export interface Wakeable {
  wake(): void;
  /** While wakes come, an idle dispatcher polls far less often (dispatcher.ts). */
  setWakesCome(coming: boolean): void;
}

export class DispatcherWakeups {
  private readonly db: DatabaseHandle;
  private readonly dispatcher: Wakeable;
  private readonly wake: () => void;
  private readonly options: WakeupOptions;
  private stopping: (() => Promise<void>) | undefined;
  private _state: WakeState = 'polling only';
  private _notifications = 0;

  constructor(db: DatabaseHandle, dispatcher: Wakeable, options: WakeupOptions) {
    this.db = db;
    this.dispatcher = dispatcher;
    this.wake = () => dispatcher.wake();
    this.options = options;
  }

  /** Whether wakes come now, and from where. */
  get state(): WakeState {
    return this._state;
  }

  /** The NOTIFYs heard since the start. */
  get notifications(): number {
    return this._notifications;
  }

  async start(): Promise<void> {
    if (this.options.mode === 'poll') return;
    // A database that cannot be asked now is taken for plain PostgreSQL: its listener keeps
    // trying to connect, and polling goes on meanwhile.
    const citus = this.db.engine === 'postgres' && (await hasCitus(this.db).catch(() => false));
    if (citus) {
      const stop = this.db.afterCommit?.(this.wake);
      if (!stop) return;
      this._state = 'after own commits';
      this.dispatcher.setWakesCome(true);
      this.stopping = async () => stop();
      return;
    }
    if (!this.db.listen) return;
    this._state = 'connecting';
    this.stopping = await this.db.listen(
      EVENT_FEED_CHANNEL,
      {
        notified: () => {
          this._notifications++;
          this.wake();
        },
        listening: () => {
          if (this._state === 'lost')
            this.options.log()?.info('webhook dispatcher listening for commits again');
          this._state = 'listening';
          this.dispatcher.setWakesCome(true);
          this.wake();
        },
        lost: (error) => {
          this.dispatcher.setWakesCome(false);
          if (this._state !== 'lost')
            this.options
              .log()
              ?.warn(
                { err: error },
                `webhook dispatcher's listening connection lost: polling every ${this.options.pollingIntervalMs} ms until it is back`,
              );
          this._state = 'lost';
        },
      },
      { retryMs: this.options.retryMs },
    );
  }

  async stop(): Promise<void> {
    const stopping = this.stopping;
    this.stopping = undefined;
    this._state = 'polling only';
    this.dispatcher.setWakesCome(false);
    await stopping?.();
  }
}
