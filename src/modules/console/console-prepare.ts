// The package's `prepare` script (package.json), run by `npm install` and `npm ci` in this
// repository: builds the console ahead into console/dist when the build is missing or stale, so
// a server starts with it built. Where the dev dependencies are left out (`npm ci --omit=dev`)
// Vite is not there: the script says so and succeeds, building nothing (package.json skips it
// before Node even reads this file, so an install on a Node without TypeScript support works
// too). A build that fails fails the install, with Vite's output.
import { ensureConsoleBuilt, findViteBin } from './console-build.ts';

if (!findViteBin()) {
  console.log(
    'prepare: Vite is not installed (a production install): the console is not built here. ' +
      'Build it with `npm run build` where the dev dependencies are installed (docs/console.md, "Building").',
  );
} else {
  try {
    console.log(
      `prepare: ${ensureConsoleBuilt() ?? 'the console build (console/dist) is up to date'}`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
