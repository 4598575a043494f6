// The console module: serves the web console (the single-page app in console/, built into
// console/dist) at /console/ on every tenant host. The app itself only calls the public API with
// the signed-in member's token; this module adds no API operation.
import type { AppModule, ModuleContext } from '../../module.ts';
import { CONSOLE_DIST } from './console-build.ts';
import { consoleRoutes } from './console-routes.ts';
import { consoleErrorCodes } from './console-errors.ts';

/** npm start builds the console first when its build is missing or stale (the CLI calls it). */
export { ensureConsoleBuilt } from './console-build.ts';

export interface ConsoleOptions {
  /** Where the built files are (tests may point elsewhere). */
  distDir?: string;
}

export function createConsoleModule(
  _context: ModuleContext,
  options: ConsoleOptions = {},
): AppModule<object> {
  const distDir = options.distDir ?? CONSOLE_DIST;
  return {
    name: 'console',
    errorCodes: consoleErrorCodes,
    services: {},
    routes: async (app) => {
      await app.register(consoleRoutes, { distDir });
    },
  };
}
