// The storage module: assets in a blob store (DATA_DIR/blobs or S3_URL), their upload and
// content routes under /management/storage and the tenant's /storage/blobs, and the job that
// removes unused blobs. It needs no other module; modules that refer to assets (the catalog's
// asset relations) reach them through its services, passed in by module-wiring.ts.
import path from 'node:path';
import type { AppModule, ModuleContext } from '../../module.ts';
import { assetHistoryRoutes } from './asset-history-routes.ts';
import { AssetService } from './asset-service.ts';
import { assetRoutes, assetsTag } from './asset-routes.ts';
import { BLOB_GC_QUEUE, BlobCollector } from './blob-collector.ts';
import { DiskBlobStore, type BlobStore } from './blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { storageErrorCodes } from './storage-errors.ts';

export interface StorageServices {
  store: BlobStore;
  assets: AssetService;
  collector: BlobCollector;
}

export function createStorageModule(context: ModuleContext): AppModule<StorageServices> {
  const { config, database } = context;
  const store: BlobStore = config.s3
    ? new S3BlobStore(config.s3, path.join(config.dataDir, 'spool'))
    : new DiskBlobStore(path.join(config.dataDir, 'blobs'));
  const assets = new AssetService(database, store, config.assetMaxBytes);
  const collector = new BlobCollector(database, store);
  return {
    name: 'storage',
    errorCodes: storageErrorCodes,
    permissions: { area: 'storage' },
    openApiTags: [assetsTag],
    services: { store, assets, collector },
    routes: async (app) => {
      await app.register(assetRoutes, { assets, store, maxRanges: config.assetMaxRanges });
      await app.register(assetHistoryRoutes, { assets, database });
    },
    queues: [
      {
        name: BLOB_GC_QUEUE,
        handler: async () => {
          const removed = await collector.collect();
          if (removed > 0) context.log()?.info({ removed }, 'unused blobs removed');
        },
        retryLimit: 2,
        retryDelaySeconds: 60,
        expireInSeconds: 600,
        concurrency: 1,
        cron: '*/5 * * * *',
      },
    ],
    stop: async () => {
      if (store instanceof S3BlobStore) await store.destroy();
    },
  };
}
