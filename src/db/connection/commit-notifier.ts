// The NOTIFYs that triggers ask for with notify_after_commit (src/db/sql/015-notify-after-commit.sql),
// sent for a node-postgres pool after the asking transaction commits. Every connection of the
// pool asks for them as notices; a notice names a channel, kept with its connection, and when the
// connection goes back to the pool with no error (its statement or its transaction committed;
// rawTransaction forgets a transaction it rolled back) the channels it collected are notified
// from another connection, whose commit does not wait for the disk (`synchronous_commit = off`).
// A NOTIFY inside the writing transaction would serialize every such commit, disk flush
// included (the SQL file says how much that cost).
//
// Sending is coalesced per channel: one NOTIFY under way at a time and, when commits came
// meanwhile, one more after it, so a burst of writes sends a few, not one each. A NOTIFY that
// fails is not tried again: the listeners poll as well.
import type pg from 'pg';
import type { RawSql } from './database.ts';

const NOTICE_PREFIX = 'notify after commit: ';

export class CommitNotifier {
  /** Channels asked for by the statements of a connection's current transaction. */
  private readonly pending = new WeakMap<pg.ClientBase, Set<string>>();
  /** Connections whose notices are heard. */
  private readonly heard = new WeakSet<pg.ClientBase>();
  /** Channels with a NOTIFY under way: whether another is due after it. */
  private readonly sending = new Map<string, boolean>();
  private readonly sender: () => RawSql;

  /** `sender`: where the NOTIFYs go, a pool whose commits do not wait for the disk. */
  constructor(sender: () => RawSql) {
    this.sender = sender;
  }

  /**
   * Sends what the connections of `pool` ask for; they ask when they were opened with
   * omni.notify_after_commit = 'notice' (CONNECTION_OPTIONS in database.ts).
   */
  watch(pool: pg.Pool): void {
    // On every checkout, not on 'connect': the pool may hold connections made before (the one
    // that checked the database could be reached).
    pool.on('acquire', (client) => {
      if (this.heard.has(client)) return;
      this.heard.add(client);
      client.on('notice', (notice) => {
        if (!notice.message?.startsWith(NOTICE_PREFIX)) return;
        const channels = this.pending.get(client) ?? new Set<string>();
        channels.add(notice.message.slice(NOTICE_PREFIX.length));
        this.pending.set(client, channels);
      });
    });
    pool.on('release', (error, client) => {
      const channels = this.pending.get(client);
      if (!channels) return;
      this.pending.delete(client);
      if (error) return;
      for (const channel of channels) this.notify(channel);
    });
  }

  /** Drops what a connection's transaction asked for: it was rolled back. */
  forget(client: pg.ClientBase): void {
    this.pending.delete(client);
  }

  private notify(channel: string): void {
    if (this.sending.has(channel)) {
      this.sending.set(channel, true);
      return;
    }
    this.sending.set(channel, false);
    void this.send(channel);
  }

  private async send(channel: string): Promise<void> {
    try {
      await this.sender().query("select pg_notify($1, '')", [channel]);
    } catch {
      // The database is unreachable or closing: the listeners find the work when they poll.
    }
    const again = this.sending.get(channel) === true;
    this.sending.delete(channel);
    if (again) this.notify(channel);
  }
}
