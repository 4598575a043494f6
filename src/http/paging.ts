// skip/take query parameters and the {Results, TotalCount} list shape (contract §4).
import { Type, type TSchema } from 'typebox';

export const PagingQuery = Type.Object({
  skip: Type.Integer({ minimum: 0, default: 0, description: 'Items to skip (default 0).' }),
  take: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 20,
    description: 'Page size, 1..1000 (default 20).',
  }),
});

export interface Paging {
  skip: number;
  take: number;
}

export const PagedResult = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      Results: Type.Array(item),
      TotalCount: Type.Integer({ description: 'Size of the filtered collection before paging.' }),
    },
    { title },
  );

export interface Page<T> {
  Results: T[];
  TotalCount: number;
}
