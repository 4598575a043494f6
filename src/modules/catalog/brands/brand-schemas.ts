import { Type, type Static } from 'typebox';
import { PagedResult, PagingQuery } from '../../../http/paging.ts';
import { Id, ShortText } from '../common-schemas.ts';

export const BrandBody = Type.Object(
  {
    Id: Type.Optional(
      Type.Integer({ description: 'Ignored on create; must match the path on update.' }),
    ),
    Name: ShortText(),
  },
  { additionalProperties: false, title: 'BrandRequest', examples: [{ Name: 'Acme Audio' }] },
);
export type BrandBody = Static<typeof BrandBody>;

export const Brand = Type.Object(
  { Id: Type.Integer(), Name: Type.String() },
  { title: 'Brand', examples: [{ Id: 1, Name: 'Acme Audio' }] },
);
export type Brand = Static<typeof Brand>;
export const BrandList = PagedResult(Brand, 'BrandList');

export const BrandListQuery = Type.Object({
  ...PagingQuery.properties,
  categoryId: Type.Optional(
    Id('Only the distinct brands of the items in this category and its subcategories.'),
  ),
});
