// What the catalog's import and export jobs need of the storage module (passed in by app.ts):
// files kept as assets of the tenant.
import type { Readable } from 'node:stream';

export interface StoredFile {
  id: number;
  size: number;
  url: string;
}

export interface CatalogFiles {
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
