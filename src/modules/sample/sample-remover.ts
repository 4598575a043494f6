// Removes from a tenant what the sample seeder made, as its records name it, and nothing else:
// what the tenant made stays, and so does a sample resource the tenant's own data now uses (a
// sample category holding one of the tenant's items, a sample brand on one), counted as kept.
// The sample's import jobs stay in the tenant's job history, as every finished import does.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import { DomainError } from '../../domain/domain-error.ts';
import type { SampleNeeds } from './sample-needs.ts';
import { SampleRecords, type SampleKind } from './sample-records.ts';

export interface SampleRemoval {
  removed: Partial<Record<SampleKind, number>>;
  /** Sample resources left because the tenant's own data uses them. */
  kept: Partial<Record<SampleKind, number>>;
}

export class SampleRemover {
  private readonly needs: SampleNeeds;
  private readonly records: SampleRecords;

  constructor(database: DatabaseHandle, needs: SampleNeeds) {
    this.needs = needs;
    this.records = new SampleRecords(database);
  }

  async remove(tenantId: number): Promise<SampleRemoval> {
    const removal: SampleRemoval = { removed: {}, kept: {} };
    const ids = async (kind: SampleKind) =>
      (await this.records.of(tenantId, kind)).map((r) => r.resourceId);
    const { catalog, company, storage, analytics } = this.needs;

    // The activity first: the devices and items it names are about to go.
    if ((await ids('analytics')).length > 0) {
      await analytics.forget(
        tenantId,
        await ids('physical-device'),
        (await ids('item')).map(Number),
      );
      await this.done(tenantId, removal, 'analytics', ['logs']);
    }
    await this.each(tenantId, removal, 'logical-device', (id) => {
      const [physical, logical] = id.split('/');
      return company.deleteLogicalDevice(tenantId, physical!, logical!);
    });
    await this.each(tenantId, removal, 'physical-device', (id) =>
      company.deletePhysicalDevice(tenantId, id),
    );
    await this.each(tenantId, removal, 'device-type', (id) =>
      company.deleteDeviceType(tenantId, Number(id)),
    );
    await this.each(tenantId, removal, 'store', (id) => company.deleteStore(tenantId, Number(id)));

    const items = await ids('item');
    await catalog.deleteItems(tenantId, items.map(Number));
    await this.done(tenantId, removal, 'item', items);
    await this.categories(tenantId, removal, await ids('category'));
    await this.each(tenantId, removal, 'brand', (id) => catalog.deleteBrand(tenantId, Number(id)));
    await this.each(tenantId, removal, 'tag', (id) => catalog.deleteTag(tenantId, Number(id)));
    await this.each(tenantId, removal, 'attribute-type', (id) =>
      catalog.deleteAttributeType(tenantId, Number(id)),
    );
    await this.each(tenantId, removal, 'price-type', (id) =>
      catalog.deletePriceType(tenantId, Number(id)),
    );
    await this.each(tenantId, removal, 'image', (id) => storage.delete(tenantId, Number(id)));
    // With the sample gone, a later seed starts again from its first step.
    await this.records.forget(tenantId, 'import', await ids('import'));
    return removal;
  }

  /** Categories children first; one that holds the tenant's own items or categories stays. */
  private async categories(tenantId: number, removal: SampleRemoval, ids: string[]): Promise<void> {
    await this.needs.catalog.deleteCategories(tenantId, ids.map(Number));
    const left = new Set((await this.needs.catalog.ids(tenantId)).categories);
    const gone = ids.filter((id) => !left.has(Number(id)));
    await this.done(tenantId, removal, 'category', gone);
    if (ids.length > gone.length) removal.kept.category = ids.length - gone.length;
  }

  /** Deletes each resource of a kind; one that is gone already counts as removed. */
  private async each(
    tenantId: number,
    removal: SampleRemoval,
    kind: SampleKind,
    remove: (resourceId: string) => Promise<void>,
  ): Promise<void> {
    const gone: string[] = [];
    let kept = 0;
    for (const { resourceId } of await this.records.of(tenantId, kind)) {
      try {
        await remove(resourceId);
        gone.push(resourceId);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.kind === 'not-found') gone.push(resourceId);
        else kept++;
      }
    }
    await this.done(tenantId, removal, kind, gone);
    if (kept > 0) removal.kept[kind] = kept;
  }

  private async done(
    tenantId: number,
    removal: SampleRemoval,
    kind: SampleKind,
    resourceIds: string[],
  ): Promise<void> {
    await this.records.forget(tenantId, kind, resourceIds);
    if (resourceIds.length > 0) removal.removed[kind] = resourceIds.length;
  }
}
