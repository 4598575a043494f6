// Server state: every page reads the API through TanStack Query (a query per list or resource,
// keyed by what it asks; a mutation invalidates the keys it changes, so the lists that show the
// change load again). Answers are not refetched behind the person's back (no refetch on window
// focus, no retry): a page makes the calls it shows, and a failure is shown at once.
import { QueryClient } from '@tanstack/react-query';
import type { CallResult, DataOf } from '@omnichannel/management-client';
import { call } from './api.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});

/** A resource with the ETag it was answered with: an update sends it back as If-Match. */
export interface Tagged<T> {
  data: T;
  etag: string | undefined;
}

/**
 * The data of a call's answer with its ETag (for the If-Match of the update that follows), or
 * its failure as an ApiFailure.
 */
export async function callTagged<Result extends CallResult<unknown>>(
  request: Promise<Result>,
): Promise<Tagged<DataOf<Result>>> {
  const answer = await request;
  const data = await call(Promise.resolve(answer));
  return { data, etag: answer.response.headers.get('ETag') ?? undefined };
}

/** The If-Match header of an update of a resource fetched with `etag` (none without one). */
export const ifMatch = (etag: string | undefined): { 'If-Match'?: string } =>
  etag ? { 'If-Match': etag } : {};
