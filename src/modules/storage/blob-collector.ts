// Removes blobs no asset uses any more (a job, every few minutes), tenant by tenant.
//
// Why it never removes a blob an asset uses: an upload first touches its tenant's blob row
// (touched_at = now(), an upsert), then stores the bytes, then inserts the asset row, whose
// foreign key needs the blob row. The collector takes only blobs that no asset of their tenant
// refers to AND that nobody touched for a grace period (an hour; an upload takes far less), locks
// their rows (skipping rows others hold), removes the bytes, then the rows, in one transaction of
// that tenant's rows alone. So:
// - an upload of the same content in flight has touched the row within the grace period: skipped;
// - an upload that touches the row while the collector holds it waits, then finds it gone and
//   inserts it afresh, and writes its bytes after the collector removed the old ones;
// - an asset insert whose foreign-key check runs while the collector holds the row waits and
//   then fails (the upload answers 503, retry), never leaving an asset without bytes.
//
// Blobs stored before blobs were kept by tenant (migration 0310; blob-store.ts) are listed in
// storage_shared_blobs and stored under their hash alone: they are removed once no asset of any
// tenant has their hash. That needs no lock: no upload writes there any more (an upload stores
// its bytes under its tenant before its asset refers to them), so an asset that could need them
// is one that existed before the migration.
import type { DatabaseHandle } from '../../db/connection/database.ts';
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

  /**
   * Removes unused blobs untouched for `graceSeconds`; answers how many. A tenant whose rows
   * cannot be reached (its Citus worker is down) is skipped, the others collected, and the
   * first such failure thrown at the end (the job runs again later).
   */
  async collect(graceSeconds = BLOB_GRACE_SECONDS): Promise<number> {
    // The tenants with blobs old enough: one read across tenants (every shard on Citus), then
    // each tenant's own statements.
    const tenants = await this.db.query<{ tenantId: number }>(
      `select distinct tenant_id as "tenantId" from storage_blobs
        where touched_at <= now() - make_interval(secs => $1)`,
      [graceSeconds],
    );
    let removed = 0;
    let failure: Error | undefined;
    for (const { tenantId } of tenants) {
      try {
        removed += await this.collectTenant(tenantId, graceSeconds);
      } catch (error) {
        failure ??= error as Error;
      }
    }
    removed += await this.collectShared();
    if (failure !== undefined) throw failure;
    return removed;
  }

  /** One tenant's unused blobs untouched for `graceSeconds`, in batches. */
  private async collectTenant(tenantId: number, graceSeconds: number): Promise<number> {
    let removed = 0;
    // Blobs in (touched_at, sha256) order, from after the last one looked at: those in use stay.
    let after: { touchedAt: string; sha256: string } | undefined;
    for (;;) {
      const batch = await this.db.rawTransaction(async (sql) => {
        // The candidates, locked (an upload touching one waits), then those no asset of the
        // tenant holds. touched_at as text: every microsecond kept, so that the next batch starts
        // after it.
        const candidates = await sql.query<{ sha256: string; touchedAt: string }>(
          `select sha256, touched_at::text as "touchedAt" from storage_blobs
            where tenant_id = $1 and touched_at <= now() - make_interval(secs => $2)
              and ($3::timestamptz is null or (touched_at, sha256) > ($3, $4))
            order by touched_at, sha256 limit ${BATCH} for update skip locked`,
          [tenantId, graceSeconds, after?.touchedAt ?? null, after?.sha256 ?? null],
        );
        if (candidates.length === 0) return { hashes: 0, looked: 0 };
        after = candidates.at(-1);
        const held = new Set(
          (
            await sql.query<{ sha256: string }>(
              'select distinct sha256 from assets where tenant_id = $1 and sha256 = any($2::text[])',
              [tenantId, candidates.map((row) => row.sha256)],
            )
          ).map((row) => row.sha256),
        );
        const hashes = candidates.map((row) => row.sha256).filter((hash) => !held.has(hash));
        if (hashes.length > 0) {
          await this.store.delete(hashes.map((sha256) => ({ tenantId, sha256 })));
          await sql.query(
            'delete from storage_blobs where tenant_id = $1 and sha256 = any($2::text[])',
            [tenantId, hashes],
          );
        }
        return { hashes: hashes.length, looked: candidates.length };
      });
      removed += batch.hashes;
      if (batch.looked < BATCH) return removed;
    }
  }

  /** The blobs of before blobs were kept by tenant that no asset has any more (see the top). */
  private async collectShared(): Promise<number> {
    let removed = 0;
    let after = '';
    for (;;) {
      const listed = await this.db.query<{ sha256: string }>(
        `select sha256 from storage_shared_blobs where sha256 > $1 order by sha256 limit ${BATCH}`,
        [after],
      );
      if (listed.length === 0) return removed;
      after = listed.at(-1)!.sha256;
      const hashes = listed.map((row) => row.sha256);
      // Every tenant's assets: on Citus a read of every shard (a job's, never a request's).
      const held = new Set(
        (
          await this.db.query<{ sha256: string }>(
            'select distinct sha256 from assets where sha256 = any($1::text[])',
            [hashes],
          )
        ).map((row) => row.sha256),
      );
      const unused = hashes.filter((hash) => !held.has(hash));
      if (unused.length > 0) {
        await this.store.delete(unused.map((sha256) => ({ tenantId: null, sha256 })));
        await this.db.query('delete from storage_shared_blobs where sha256 = any($1::text[])', [
          unused,
        ]);
        removed += unused.length;
      }
      if (listed.length < BATCH) return removed;
    }
  }
}
