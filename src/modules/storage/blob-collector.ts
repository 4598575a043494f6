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
    for (;;) {
      const batch = await this.db.rawTransaction(async (sql) => {
        const rows = await sql.query<{ sha256: string }>(
          `select b.sha256 from storage_blobs b
            where b.touched_at <= now() - make_interval(secs => $1)
              and not exists (select 1 from assets a where a.sha256 = b.sha256)
            order by b.touched_at limit ${BATCH}
              for update skip locked`,
          [graceSeconds],
        );
        const hashes = rows.map((row) => row.sha256);
        if (hashes.length === 0) return 0;
        await this.store.delete(hashes);
        await sql.query('delete from storage_blobs where sha256 = any($1::text[])', [hashes]);
        return hashes.length;
      });
      removed += batch;
      if (batch < BATCH) return removed;
    }
  }
}
