// Assets: uploads into the blob store, their rows, and the lookup behind AssetUrl. Every query is
// scoped by tenant, the blobs' rows too: equal bytes are one blob within a tenant (migration
// 0310), so an upload writes its own tenant's rows alone (on Citus, its own worker). Blobs no
// asset uses are removed by the collector.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import { DomainError } from '../../domain/domain-error.ts';
import { translatingConstraints } from '../../db/queries/constraint-translation.ts';
import type { Page, Paging } from '../../domain/paging.ts';
import type { BlobKey, BlobStore } from './blob-store.ts';
import { checkImageContent, familyOf, parseMimeType, type AssetFamily } from './content-check.ts';
import { spool, spoolBuffer, type Spooled } from './spool.ts';
import { assetInUse, assetNotFound, emptyAsset, invalidFileName } from './storage-errors.ts';
import type { AssetJson } from './asset-schemas.ts';

/** The path under a tenant's base URL where asset bytes are served. */
export const ASSET_CONTENT_PATH = '/storage/blobs';

/**
 * What another module runs in a forced delete's transaction before the asset row goes: it removes
 * its own rows that refer to the asset (their foreign keys refuse the delete otherwise).
 */
export type ReleaseAsset = (sql: RawSql, tenantId: number, assetId: number) => Promise<void>;

/** An asset as another module shows it (asset relations list these). */
export interface AssetDescription {
  family: AssetFamily;
  mimeType: string;
  fileName: string;
  url: string;
}

interface AssetRow {
  id: number;
  file_name: string;
  mime_type: string;
  size: string | number;
  url_key: string;
  created_at: Date | string;
}

/** What AssetUrl serves: enough to answer without reading the bytes. */
export interface AssetContent {
  tenantId: number;
  sha256: string;
  size: number;
  mimeType: string;
  fileName: string;
}

export interface NewAsset {
  fileName: string;
  mimeType: string;
}

const COLUMNS = 'id, file_name, mime_type, size, url_key, created_at';
// No path separators, no control characters (C0, DEL, C1), and no characters that change the
// direction text is shown in (a right-to-left override makes "\u202egnp.exe" show as "exe.png").
const FILE_NAME =
  // eslint-disable-next-line no-control-regex
  /^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]{1,256}$/;

export const assetUrl = (baseUrl: string, urlKey: string) =>
  `${baseUrl}${ASSET_CONTENT_PATH}/${urlKey}`;

// What an AssetUrl serves is looked up once per key and kept briefly: a key's content never
// changes, and an asset deleted on another instance stops being served within this time, like a
// deleted tenant (docs/design.md, "Serving assets"). Deletes on this instance evict at once.
const CONTENT_TTL_MS = 5_000;

export class AssetService {
  private readonly db: DatabaseHandle;
  private readonly store: BlobStore;
  readonly maxBytes: number;
  // Only found assets: an unknown key costs a query each time, so guessing keys cannot fill it.
  private readonly contents = new LRUCache<string, AssetContent>({
    max: 10_000,
    ttl: CONTENT_TTL_MS,
  });

  private readonly releases: ReleaseAsset[] = [];

  constructor(db: DatabaseHandle, store: BlobStore, maxBytes: number) {
    this.db = db;
    this.store = store;
    this.maxBytes = maxBytes;
  }

  /** Checks the declared name and type before any byte is read. */
  checkDeclared(asset: NewAsset): NewAsset {
    const fileName = asset.fileName.trim();
    if (!FILE_NAME.test(fileName)) throw invalidFileName();
    return { fileName, mimeType: parseMimeType(asset.mimeType) };
  }

  /**
   * Stores a streamed upload (POST /asset/raw): 413 past the limit (ASSET_MAX_BYTES unless the
   * caller has its own, as a catalog import file does), nothing left on failure.
   */
  async createFromStream(
    tenantId: number,
    baseUrl: string,
    declared: NewAsset,
    body: Readable,
    maxBytes = this.maxBytes,
  ): Promise<AssetJson> {
    const asset = this.checkDeclared(declared);
    const spooled = await spool(body, await this.store.spoolDirectory(), maxBytes);
    return this.store_(tenantId, baseUrl, asset, spooled);
  }

  /** Stores bytes already decoded (POST /asset with a base64 FileBody). */
  async createFromBuffer(
    tenantId: number,
    baseUrl: string,
    declared: NewAsset,
    bytes: Buffer,
  ): Promise<AssetJson> {
    const asset = this.checkDeclared(declared);
    const spooled = await spoolBuffer(bytes, await this.store.spoolDirectory());
    return this.store_(tenantId, baseUrl, asset, spooled);
  }

  private async store_(
    tenantId: number,
    baseUrl: string,
    asset: NewAsset,
    spooled: Spooled,
  ): Promise<AssetJson> {
    try {
      if (spooled.size === 0) throw emptyAsset();
      await checkImageContent(asset.mimeType, spooled.head);
      // Touched before the bytes go in: the collector leaves a blob alone for a grace period
      // after its last touch, so it cannot remove these bytes before the asset row refers to them.
      await this.db.query(
        `insert into storage_blobs (tenant_id, sha256, size, touched_at) values ($1, $2, $3, now())
         on conflict (tenant_id, sha256) do update set touched_at = excluded.touched_at`,
        [tenantId, spooled.sha256, spooled.size],
      );
      await this.store.put({ tenantId, sha256: spooled.sha256 }, spooled.file, spooled.size);
      const [row] = await translatingConstraints(
        () =>
          this.db.query<AssetRow>(
            `insert into assets (tenant_id, file_name, mime_type, family, size, sha256, url_key)
             values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
            [
              tenantId,
              asset.fileName,
              asset.mimeType,
              familyOf(asset.mimeType),
              spooled.size,
              spooled.sha256,
              randomBytes(32).toString('base64url'),
            ],
          ),
        {
          // Only when the upload stalled past the collector's grace period between the touch
          // and this insert: the blob may be gone, so nothing refers to it.
          missingReference: () =>
            new DomainError(
              'unavailable',
              'UploadInterrupted',
              'The upload took too long; send it again.',
              {
                retryAfterSeconds: 1,
              },
            ),
        },
      );
      return toJson(row!, baseUrl);
    } finally {
      await rm(spooled.file, { force: true });
    }
  }

  /** The asset and its version (for ETag and If-Match). */
  async get(
    tenantId: number,
    id: number,
    baseUrl: string,
  ): Promise<{ asset: AssetJson; version: Date }> {
    const [row] = await this.db.query<AssetRow>(
      `select ${COLUMNS} from assets where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw assetNotFound(id);
    return { asset: toJson(row, baseUrl), version: new Date(row.created_at) };
  }

  async list(tenantId: number, paging: Paging, baseUrl: string): Promise<Page<AssetJson>> {
    const [rows, [total]] = await Promise.all([
      this.db.query<AssetRow>(
        `select ${COLUMNS} from assets where tenant_id = $1 order by id offset $2 limit $3`,
        [tenantId, paging.skip, paging.take],
      ),
      this.db.query<{ n: number }>('select count(*)::int as n from assets where tenant_id = $1', [
        tenantId,
      ]),
    ]);
    return { Results: rows.map((row) => toJson(row, baseUrl)), TotalCount: total?.n ?? 0 };
  }

  /** Registers what a forced delete runs before removing the asset (see ReleaseAsset). */
  onForcedDelete(release: ReleaseAsset): void {
    this.releases.push(release);
  }

  /**
   * Deletes an asset: 409 while something refers to it, unless `force`, which runs every
   * registered release in the same transaction first. The blob stays until the collector finds
   * no asset using it.
   */
  async delete(
    tenantId: number,
    id: number,
    options: { force: boolean; checkVersion: (version: Date) => void },
  ): Promise<void> {
    const urlKey = await translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          // Locked: a relation being added waits, then finds no asset (404).
          const [row] = await sql.query<{ created_at: Date | string }>(
            'select created_at from assets where tenant_id = $1 and id = $2 for update',
            [tenantId, id],
          );
          if (!row) throw assetNotFound(id);
          options.checkVersion(new Date(row.created_at));
          if (options.force) for (const release of this.releases) await release(sql, tenantId, id);
          const deleted = await sql.query<{ url_key: string }>(
            'delete from assets where tenant_id = $1 and id = $2 returning url_key',
            [tenantId, id],
          );
          return deleted[0]!.url_key;
        }),
      { stillReferenced: () => assetInUse(id) },
    );
    this.forgetContent(tenantId, urlKey);
  }

  /** The asset behind an AssetUrl key, or undefined. */
  async content(tenantId: number, urlKey: string): Promise<AssetContent | undefined> {
    const cacheKey = `${tenantId}/${urlKey}`;
    const cached = this.contents.get(cacheKey);
    if (cached) return cached;
    const [row] = await this.db.prepared<{
      sha256: string;
      size: string | number;
      mime_type: string;
      file_name: string;
    }>(
      'storage.asset-content',
      'select sha256, size, mime_type, file_name from assets where tenant_id = $1 and url_key = $2',
      [tenantId, urlKey],
    );
    if (!row) return undefined;
    const content = {
      tenantId,
      sha256: row.sha256,
      size: Number(row.size),
      mimeType: row.mime_type,
      fileName: row.file_name,
    };
    this.contents.set(cacheKey, content);
    return content;
  }

  /** Stops serving a key from the cache (its asset was deleted, or its blob is gone). */
  forgetContent(tenantId: number, urlKey: string): void {
    this.contents.delete(`${tenantId}/${urlKey}`);
  }

  /** Where an asset's bytes are (to read them with the blob store), or undefined. */
  async blobOf(
    tenantId: number,
    id: number,
  ): Promise<{ key: BlobKey; sha256: string; size: number; mimeType: string } | undefined> {
    const [row] = await this.db.query<{ sha256: string; size: string | number; mime_type: string }>(
      'select sha256, size, mime_type from assets where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    return row
      ? {
          key: { tenantId, sha256: row.sha256 },
          sha256: row.sha256,
          size: Number(row.size),
          mimeType: row.mime_type,
        }
      : undefined;
  }

  /**
   * The tenant's assets with one of `ids`, or whose bytes have one of `sha256s`, on `sql` (the
   * caller's transaction): what a catalog export names an asset by and an import matches it on.
   * Each content is looked up through the sha256 index on its own, so the tenant's size does not
   * matter.
   */
  async find(
    sql: RawSql,
    tenantId: number,
    keys: { ids: readonly number[]; sha256s: readonly string[] },
  ): Promise<
    { id: number; family: AssetFamily; mimeType: string; fileName: string; sha256: string }[]
  > {
    if (keys.ids.length === 0 && keys.sha256s.length === 0) return [];
    const rows = await sql.query<{
      id: number;
      family: AssetFamily;
      mime_type: string;
      file_name: string;
      sha256: string;
    }>(
      `select id, family, mime_type, file_name, sha256 from assets
        where tenant_id = $1 and id = any($2::bigint[])
       union
       select a.id, a.family, a.mime_type, a.file_name, a.sha256
         from unnest($3::text[]) as s(sha256)
        cross join lateral (select * from assets where sha256 = s.sha256 and tenant_id = $1) a`,
      [tenantId, keys.ids, keys.sha256s],
    );
    return rows.map((row) => ({
      id: row.id,
      family: row.family,
      mimeType: row.mime_type,
      fileName: row.file_name,
      sha256: row.sha256,
    }));
  }

  /** The family of an asset of this tenant, or undefined (relations check it). */
  async familyOf(tenantId: number, id: number): Promise<AssetFamily | undefined> {
    const [row] = await this.db.query<{ family: AssetFamily }>(
      'select family from assets where tenant_id = $1 and id = $2',
      [tenantId, id],
    );
    return row?.family;
  }

  /** The assets of this tenant among `ids`, in one query; absent ids are left out. */
  async describe(
    tenantId: number,
    ids: readonly number[],
    baseUrl: string,
  ): Promise<Map<number, AssetDescription>> {
    const described = new Map<number, AssetDescription>();
    if (ids.length === 0) return described;
    const rows = await this.db.query<{
      id: number;
      family: AssetFamily;
      mime_type: string;
      file_name: string;
      url_key: string;
    }>(
      `select id, family, mime_type, file_name, url_key from assets
        where tenant_id = $1 and id = any($2::bigint[])`,
      [tenantId, ids],
    );
    for (const row of rows)
      described.set(row.id, {
        family: row.family,
        mimeType: row.mime_type,
        fileName: row.file_name,
        url: assetUrl(baseUrl, row.url_key),
      });
    return described;
  }
}

function toJson(row: AssetRow, baseUrl: string): AssetJson {
  return {
    Id: row.id,
    FileName: row.file_name,
    MimeType: row.mime_type,
    Size: Number(row.size),
    AssetUrl: assetUrl(baseUrl, row.url_key),
  };
}
