// The console module's error code (its pages are HTML; only a missing build answers the error body).
import type { ErrorCodes } from '../../domain/error-code-list.ts';

/** The codes the console module answers besides the shared ones (src/http/error-codes.ts). */
export const consoleErrorCodes = {
  ConsoleNotBuilt: {
    status: 503,
    meaning: 'The console has not been built on this server; run npm run build.',
  },
} as const satisfies ErrorCodes;
