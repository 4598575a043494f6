// The sample module's settings, from the environment (src/config.ts composes every module's).
import { oneOf, type Env } from '../../config/env-readers.ts';

export interface SampleSettings {
  /**
   * Whether the first start, which makes the `demo` tenant on a database without tenants, also
   * fills it with the sample catalog (`npm start -- --no-sample` turns it off for one start).
   */
  sampleCatalog: boolean;
}

export function sampleSettings(env: Env): SampleSettings {
  return { sampleCatalog: oneOf(env, 'SAMPLE_CATALOG', ['true', 'false'], 'true') === 'true' };
}
