import { Type, type Static } from 'typebox';
import { ReadOnly } from '../../../http/read-only.ts';
import { Id, LongText, MetadataPair, Nullable, ShortText } from '../common-schemas.ts';

const fields = {
  Id: Type.Optional(
    Type.Integer({ description: 'Ignored on create; must match the path on update.' }),
  ),
  Name: ShortText(),
  ShortDescription: Type.Optional(Nullable(LongText())),
  LongDescription: Type.Optional(Nullable(LongText())),
  ParentCategoryId: Type.Optional(Nullable(Id('null or absent: a root category'))),
  ParentCategoryName: ReadOnly(Nullable(Type.String())),
  SubCategoryCount: ReadOnly(Type.Integer()),
  CategoryMetadata: ReadOnly(
    Type.Array(MetadataPair),
    'Read-only here, and ignored: metadata is changed at /private/catalog/categorymetadata.',
  ),
};

export const CategoryBody = Type.Object(fields, {
  additionalProperties: false,
  title: 'CategoryRequest',
});
export type CategoryBody = Static<typeof CategoryBody>;

export const CategoryPatch = Type.Object(
  { ...fields, Name: Type.Optional(ShortText()) },
  {
    additionalProperties: false,
    title: 'CategoryPatch',
    description: 'Only the fields sent change; null clears a nullable field.',
  },
);
export type CategoryPatch = Static<typeof CategoryPatch>;

const nullableString = Type.Union([Type.String(), Type.Null()]);

export const Category = Type.Object(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    ShortDescription: nullableString,
    LongDescription: nullableString,
    ParentCategoryId: Type.Union([Type.Integer(), Type.Null()]),
    ParentCategoryName: nullableString,
    SubCategoryCount: Type.Integer(),
    CategoryMetadata: Type.Array(MetadataPair),
  },
  {
    title: 'Category',
    examples: [
      {
        Id: 2,
        Name: 'Headphones',
        ShortDescription: 'Over-ear and in-ear headphones',
        LongDescription: null,
        ParentCategoryId: 1,
        ParentCategoryName: 'Audio',
        SubCategoryCount: 0,
        CategoryMetadata: [{ Key: 'season', Value: 'all-year' }],
      },
    ],
  },
);
export type Category = Static<typeof Category>;

export interface CategoryTreeNode {
  Id: number;
  Name: string;
  ShortDescription: string | null;
  LongDescription: string | null;
  CategoryMetadata: { Key: string; Value: string }[];
  CategoryTreeItems: CategoryTreeNode[];
}

/** A node of the category tree; shared (added at the root) because it refers to itself. */
export const CategoryTreeItem = {
  $id: 'CategoryTreeItem',
  title: 'CategoryTreeItem',
  type: 'object',
  required: [
    'Id',
    'Name',
    'ShortDescription',
    'LongDescription',
    'CategoryMetadata',
    'CategoryTreeItems',
  ],
  properties: {
    Id: { type: 'integer' },
    Name: { type: 'string' },
    ShortDescription: { type: ['string', 'null'] },
    LongDescription: { type: ['string', 'null'] },
    CategoryMetadata: { type: 'array', items: MetadataPair },
    CategoryTreeItems: { type: 'array', items: { $ref: 'CategoryTreeItem#' } },
  },
} as const;

export const CategoryTree = Type.Object(
  { Categories: Type.Array(Type.Unsafe<CategoryTreeNode>({ $ref: 'CategoryTreeItem#' })) },
  { title: 'CategoryTree' },
);

export const CategoryMetadataBody = Type.Object(
  { CategoryId: Id(), Key: ShortText(), Value: Type.String({ maxLength: 4000 }) },
  { additionalProperties: false, title: 'CategoryMetadataRequest' },
);
export type CategoryMetadataBody = Static<typeof CategoryMetadataBody>;

export const CategoryMetadataQuery = Type.Object({ categoryId: Id() });
export const CategoryMetadataDeleteQuery = Type.Object({
  categoryId: Id(),
  metadataKey: Type.Optional(
    ShortText({ description: 'Without it, all metadata of the category is removed.' }),
  ),
});
