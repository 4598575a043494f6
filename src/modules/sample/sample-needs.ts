// What the sample module needs of the others (passed in by src/module-wiring.ts): the same
// services the API's routes call, so that the sample is validated, raises its events and builds
// its search documents as any client's writes do. Each call may throw the API's DomainError.

/** The catalog's resources the sample names, by id. */
export interface CatalogIds {
  categories: number[];
  brands: number[];
  tags: number[];
  priceTypes: number[];
  attributeTypes: number[];
}

/** How an import job ended. */
export interface SampleImportEnd {
  state: string;
  rowsWritten: number;
  rowsFailed: number;
  error: string | null;
}

export interface SampleNeeds {
  catalog: {
    /** Creates an import job of a JSONL file (createMissing, SkipFailedRows), not yet run. */
    createImport(tenantId: number, baseUrl: string, jsonl: Buffer): Promise<number>;
    /** Runs the job here to its end (or waits for the worker that holds it); how it ended. */
    runImport(
      tenantId: number,
      jobId: number,
      onProgress: (rowsDone: number) => void,
    ): Promise<SampleImportEnd>;
    /** The items a job wrote, by the SKU of their record. */
    importedItems(tenantId: number, jobId: number): Promise<{ sku: string; itemId: number }[]>;
    /** Every id of the tenant's catalog resources (a snapshot to compare before and after). */
    ids(tenantId: number): Promise<CatalogIds>;
    /** Deletes items, variants before the item their group defaults to; missing ones are skipped. */
    deleteItems(tenantId: number, itemIds: number[]): Promise<void>;
    /** Deletes categories, children before parents; missing ones are skipped. */
    deleteCategories(tenantId: number, categoryIds: number[]): Promise<void>;
    deleteBrand(tenantId: number, id: number): Promise<void>;
    deleteTag(tenantId: number, id: number): Promise<void>;
    deletePriceType(tenantId: number, id: number): Promise<void>;
    deleteAttributeType(tenantId: number, id: number): Promise<void>;
  };
  storage: {
    upload(
      tenantId: number,
      baseUrl: string,
      file: { fileName: string; mimeType: string },
      bytes: Buffer,
    ): Promise<number>;
    delete(tenantId: number, assetId: number): Promise<void>;
  };
  company: {
    createStore(
      tenantId: number,
      store: {
        Name: string;
        Description: string;
        Address: string;
        Location: { Longitude: number; Latitude: number };
      },
    ): Promise<number>;
    createDeviceType(tenantId: number, description: string): Promise<number>;
    createPhysicalDevice(
      tenantId: number,
      device: { DeviceId: string; Description: string; StoreId: number },
    ): Promise<void>;
    createLogicalDevice(
      tenantId: number,
      physicalDeviceId: string,
      device: { DeviceId: string; Description: string; DeviceTypeId: number },
    ): Promise<void>;
    deleteStore(tenantId: number, id: number): Promise<void>;
    deleteDeviceType(tenantId: number, id: number): Promise<void>;
    deletePhysicalDevice(tenantId: number, id: string): Promise<void>;
    deleteLogicalDevice(tenantId: number, physicalDeviceId: string, id: string): Promise<void>;
  };
  analytics: {
    /** Ingests a batch of records as `POST /analytics/logs` does (all or nothing). */
    ingest(tenantId: number, records: readonly Record<string, unknown>[]): Promise<number>;
    /** Computes the trending items of one day (YYYY-MM-DD in the tenant's time zone). */
    trending(tenantId: number, date: string): Promise<number>;
    /** Deletes the logs these devices recorded and the trending records of these items. */
    forget(tenantId: number, physicalDeviceIds: string[], itemIds: number[]): Promise<void>;
  };
}
