// skip/take query parameters and the list envelopes (contract §4): `{Results, TotalCount}` for
// management and private lists, `{"Data": …}` around everything public (device-facing) routes send.
import { Type, type TSchema } from 'typebox';

export type { Page, Paging } from '../domain/paging.ts';

/** The largest skip a list takes (a 32-bit integer, as PostgreSQL's OFFSET reads it at ease). */
export const MAX_SKIP = 2_147_483_647;

export const PagingQuery = Type.Object({
  skip: Type.Integer({
    minimum: 0,
    maximum: MAX_SKIP,
    default: 0,
    description: `Items to skip (default 0, at most ${MAX_SKIP}); decimal digits only.`,
  }),
  take: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 20,
    description: 'Page size, 1..1000 (default 20); decimal digits only.',
  }),
});

export const PagedResult = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      Results: Type.Array(item),
      TotalCount: Type.Integer({ description: 'Size of the filtered collection before paging.' }),
    },
    { title },
  );

/** The public routes' envelope: `{"Data": …}`. */
export const DataEnvelope = <T extends TSchema>(data: T, title: string) =>
  Type.Object({ Data: data }, { title });

export const inDataEnvelope = <T>(data: T): { Data: T } => ({ Data: data });
