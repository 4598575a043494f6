import { invalid } from './domain-error.ts';

/** An update may repeat the resource's Id in its body, but not name another one. */
export function assertBodyIdMatches(
  bodyId: number | string | undefined,
  pathId: number | string,
): void {
  if (bodyId !== undefined && bodyId !== pathId) {
    throw invalid('IdMismatch', `The body's Id ${bodyId} differs from the path's ${pathId}.`);
  }
}
