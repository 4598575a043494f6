// The sample module: a small home and garden retailer's catalog, stores, devices and a few weeks
// of shopper activity, made in a tenant through the other modules' services (sample-needs.ts) so
// that a newcomer's first start shows a living store. It has no routes: the first start seeds the
// demo tenant (src/server.ts), and `omni sample seed|remove` any tenant.
import type { AppModule, ModuleContext } from '../../module.ts';
import type { SampleNeeds } from './sample-needs.ts';
import { SampleRemover } from './sample-remover.ts';
import { SampleSeeder } from './sample-seeder.ts';

export { sampleCommands } from './sample-commands.ts';
export type { SampleNeeds } from './sample-needs.ts';
export { SAMPLE_DEFAULT_ITEMS, type SampleCounts } from './sample-seeder.ts';

export interface SampleServices {
  seeder: SampleSeeder;
  remover: SampleRemover;
}

export function createSampleModule(
  context: ModuleContext,
  needs: SampleNeeds,
): AppModule<SampleServices> {
  return {
    name: 'sample',
    services: {
      seeder: new SampleSeeder(context.database, needs),
      remover: new SampleRemover(context.database, needs),
    },
  };
}
export { describeCounts as describeSample } from './sample-commands.ts';
