// Removes blobs no asset uses any more (a job, every few minutes).
//
// Why it never removes a blob an asset uses: an upload first touches the blob's row
// (touched_at = now(), an upsert), then stores the bytes, then inserts the asset row, whose
// foreign key needs the blob row. The collector takes only blobs that no asset refers to AND
// that nobody touched for a grace period (an hour; an upload takes far less), locks their rows
// (skipping rows others hold), removes the bytes, then the rows, in one transaction. So:
// - an upload of the same content in flight has touched the row within the grace period: skipped;
// - an upload that touches the row while the collector holds it waits, then finds it gone and
//   inserts it afresh, and writes its bytes after the collector removed the old ones;
// - an asset insert whose foreign-key check runs while the collector holds the row waits and
//   then fails (the upload answers 503, retry), never leaving an asset without bytes.
import type { DatabaseHandle } from '../../db/database.ts';
import type { BlobStore } from './blob-store.ts';

export const BLOB_GC_QUEUE = 'storage.collect-blobs';
export const BLOB_GRACE_SECONDS = 3600;
const BATCH = 500;

export class BlobCollector {
  private readonly db: DatabaseHandle;
  private readonly store: BlobStore;

  constructor(db: DatabaseHandle, store: BlobStore) {
    this.db = db;
    this.store = store;
  }

  /** Removes unused blobs untouched for `graceSeconds`; answers how many. */
  async collect(graceSeconds = BLOB_GRACE_SECONDS): Promise<number> {
    let removed = 0;
    // Blobs in (touched_at, sha256) order, from after the last one looked at: those in use stay.
    let after: { touchedAt: string; sha256: string } | undefined;
    for (;;) {
      const batch = await this.db.rawTransaction(async (sql) => {
        // The candidates, locked (an upload touching one waits), then those no asset of any tenant
        // holds: two statements, as on Citus the blobs are a reference table and the assets are
        // spread over the workers, and a statement that locks rows reads one kind of table only.
        // touched_at as text: every microsecond kept, so that the next batch starts after it.
        // On Citus, the assets' read over every worker goes one connection per worker, as a
        // reference table (the blobs) is then written in the same transaction (elsewhere the
        // setting is a name nothing reads).
        await sql.query("set local citus.multi_shard_modify_mode = 'sequential'");
        const candidates = await sql.query<{ sha256: string; touchedAt: string }>(
          `select sha256, touched_at::text as "touchedAt" from storage_blobs
            where touched_at <= now() - make_interval(secs => $1)
              and ($2::timestamptz is null or (touched_at, sha256) > ($2, $3))
            order by touched_at, sha256 limit ${BATCH} for update skip locked`,
          [graceSeconds, after?.touchedAt ?? null, after?.sha256 ?? null],
        );
        if (candidates.length === 0) return { hashes: 0, looked: 0 };
        after = candidates.at(-1);
        const held = new Set(
          (
            await sql.query<{ sha256: string }>(
              'select distinct sha256 from assets where sha256 = any($1::text[])',
              [candidates.map((row) => row.sha256)],
            )
          ).map((row) => row.sha256),
        );
        const hashes = candidates.map((row) => row.sha256).filter((hash) => !held.has(hash));
        if (hashes.length > 0) {
          await this.store.delete(hashes);
          await sql.query('delete from storage_blobs where sha256 = any($1::text[])', [hashes]);
        }
        return { hashes: hashes.length, looked: candidates.length };
      });
      removed += batch.hashes;
      if (batch.looked < BATCH) return removed;
    }
  }
}
