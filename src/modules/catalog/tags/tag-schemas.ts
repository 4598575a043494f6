import { Type, type Static } from 'typebox';
import { PagedResult, PagingQuery } from '../../../http/paging.ts';
import { Id, LongText, Nullable, ShortText } from '../common-schemas.ts';

export const TagBody = Type.Object(
  {
    Id: Type.Optional(
      Type.Integer({ description: 'Ignored on create; must match the path on update.' }),
    ),
    Name: ShortText(),
    Description: Type.Optional(Nullable(LongText())),
  },
  { additionalProperties: false, title: 'TagRequest' },
);
export type TagBody = Static<typeof TagBody>;

export const Tag = Type.Object(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    Description: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Tag' },
);
export type Tag = Static<typeof Tag>;
export const TagList = PagedResult(Tag, 'TagList');

export const ItemTagMapping = Type.Object(
  { ItemId: Id(), TagId: Id() },
  { additionalProperties: false, title: 'ItemTagMapping' },
);
export type ItemTagMapping = Static<typeof ItemTagMapping>;

export const ItemTagMappingQuery = Type.Object({
  itemId: Type.Optional(Id()),
  tagId: Type.Optional(Id()),
  ...PagingQuery.properties,
});
export const ItemTagMappingList = PagedResult(ItemTagMapping, 'ItemTagMappingList');
export const ItemTagMappingKey = Type.Object({ itemId: Id(), tagId: Id() });
