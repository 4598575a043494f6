// What the catalog needs of the storage module (passed in by module-wiring.ts): files kept as assets of the
// tenant for imports and exports, and what the asset relations show of the assets they relate.
// The catalog depends on storage through this interface only; storage knows nothing of the catalog.
import type { Readable } from 'node:stream';
import type { RawSql } from '../../db/connection/database.ts';

export interface StoredFile {
  id: number;
  size: number;
  url: string;
}

/** image/* is an image, video/* a video, anything else a document. */
export type AssetFamily = 'image' | 'video' | 'document';

/** An asset as a relation lists it. */
export interface AssetDescription {
  family: AssetFamily;
  mimeType: string;
  fileName: string;
  /** Where its bytes are served, under the tenant's base URL. */
  url: string;
}

/** Files kept as assets: an import's source, an export's result. */
export interface AssetFiles {
  /** Stores a file as an asset of the tenant, its bytes streamed; 413 past `maxBytes`. */
  store(
    tenantId: number,
    baseUrl: string,
    file: { fileName: string; mimeType: string },
    body: Readable,
    maxBytes: number,
  ): Promise<StoredFile>;
  /** An asset's size, MIME type and a reader of its bytes; undefined when the tenant has no such asset. */
  open(
    tenantId: number,
    assetId: number,
  ): Promise<{ size: number; mimeType: string; read: () => Promise<Readable> } | undefined>;
}

/** An asset as an export names it and an import matches it: by content and name, not by id. */
export interface AssetFacts {
  id: number;
  family: AssetFamily;
  mimeType: string;
  fileName: string;
  /** The SHA-256 of its bytes, lower-case hex (also the ETag of its AssetUrl). */
  sha256: string;
}

/** What the asset relations read of assets, and how they take part in an asset's forced delete. */
export interface RelatedAssets {
  /** The family of an asset of the tenant, or undefined when it has none with this id. */
  familyOf(tenantId: number, assetId: number): Promise<AssetFamily | undefined>;
  /** The assets of the tenant among `assetIds` (one lookup for all); absent ids are left out. */
  describe(
    tenantId: number,
    assetIds: readonly number[],
    baseUrl: string,
  ): Promise<Map<number, AssetDescription>>;
  /**
   * The tenant's assets with one of `ids`, or whose bytes have one of `sha256s` (every asset of
   * that content), read on `sql` (an import reads them inside its chunk's transaction).
   */
  find(
    sql: RawSql,
    tenantId: number,
    keys: { ids: readonly number[]; sha256s: readonly string[] },
  ): Promise<AssetFacts[]>;
  /**
   * Registers what a forced delete of an asset runs in its transaction before removing the asset:
   * here, removing its relations, whose foreign keys otherwise refuse the delete.
   */
  onForcedDelete(release: (sql: RawSql, tenantId: number, assetId: number) => Promise<void>): void;
}

export type CatalogAssets = AssetFiles & RelatedAssets;

/** What imports and exports use: files, and assets found by id or content. */
export type BulkAssets = AssetFiles & Pick<RelatedAssets, 'find'>;
