import { badRequest } from '../../http/errors.ts';

/** An update may repeat the resource's Id in its body, but not name another one. */
export function assertBodyIdMatches(bodyId: number | undefined, pathId: number): void {
  if (bodyId !== undefined && bodyId !== pathId) {
    throw badRequest('IdMismatch', `The body's Id ${bodyId} differs from the path's ${pathId}.`);
  }
}
