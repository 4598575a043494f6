// The records of an import file that are not items: the catalog's categories, brands, tags, price
// types and dynamic attribute types with what an item record cannot carry (descriptions, metadata,
// asset relations, and those no item uses). An export writes them before its items. Each names its
// resource the way an item record refers to it (CategoryPath, Brand, PriceTypeSymbol, TypeName;
// a tag by Tag), so one CSV header serves every record type.
import { Type, type Static } from 'typebox';
import { LongText, Nullable, ShortText } from '../common-schemas.ts';
import { CategoryPath, ImportAssets } from './import-schemas.ts';

const Metadata = Type.Array(
  Type.Object(
    { Key: ShortText(), Value: Type.String({ maxLength: 4000 }) },
    { additionalProperties: false },
  ),
  { maxItems: 1000 },
);

export const CategoryRecord = Type.Object(
  {
    RecordType: Type.Literal('Category'),
    CategoryPath,
    ShortDescription: Type.Optional(Nullable(LongText())),
    LongDescription: Type.Optional(Nullable(LongText())),
    CategoryMetadata: Type.Optional(Metadata),
    Assets: Type.Optional(ImportAssets),
  },
  { additionalProperties: false },
);
export type CategoryRecord = Static<typeof CategoryRecord>;

export const BrandRecord = Type.Object(
  { RecordType: Type.Literal('Brand'), Brand: ShortText(), Assets: Type.Optional(ImportAssets) },
  { additionalProperties: false },
);
export type BrandRecord = Static<typeof BrandRecord>;

export const TagRecord = Type.Object(
  {
    RecordType: Type.Literal('Tag'),
    Tag: ShortText(),
    Description: Type.Optional(Nullable(LongText())),
  },
  { additionalProperties: false },
);
export type TagRecord = Static<typeof TagRecord>;

export const PriceTypeRecord = Type.Object(
  {
    RecordType: Type.Literal('PriceType'),
    PriceTypeSymbol: Type.String({ minLength: 1, maxLength: 16 }),
    Description: Type.Optional(ShortText()),
  },
  { additionalProperties: false },
);
export type PriceTypeRecord = Static<typeof PriceTypeRecord>;

export const AttributeTypeRecord = Type.Object(
  { RecordType: Type.Literal('AttributeType'), TypeName: ShortText() },
  { additionalProperties: false },
);
export type AttributeTypeRecord = Static<typeof AttributeTypeRecord>;

export type ReferenceRecord =
  CategoryRecord | BrandRecord | TagRecord | PriceTypeRecord | AttributeTypeRecord;

export const REFERENCE_RECORDS = {
  Category: CategoryRecord,
  Brand: BrandRecord,
  Tag: TagRecord,
  PriceType: PriceTypeRecord,
  AttributeType: AttributeTypeRecord,
} as const;
