import { Type, type Static } from 'typebox';
import { documentedOnly } from '../../../http/documented-only.ts';
import { PagedResult } from '../../../http/paging.ts';
import { WebLink } from '../../../http/web-link.ts';
import { DynamicAttribute, DynamicAttributeInput } from '../attributes/attribute-schemas.ts';
import { Id, LongText, Nullable, ShortText } from '../common-schemas.ts';

// Stored as numeric(14, 4): at most 10 digits before the point. The cap stays below 1e10 so that
// rounding to 4 decimals never overflows the column (which would be a 500 on bad input).
const Money = () => Type.Number({ minimum: 0, maximum: 9_999_999_999.99 });

export const PriceInput = Type.Object(
  {
    PriceId: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
    ItemId: Type.Optional(
      Type.Union([Id(), Type.Null()], { description: "If given, must be the item's id." }),
    ),
    NormalPrice: Money(),
    DiscountPrice: Type.Optional(
      Type.Union([Money(), Type.Null()], { description: 'At most NormalPrice.' }),
    ),
    PriceTypeId: Type.Optional(Id('The price type (required unless CurrencyId is given).')),
    PriceTypeSymbol: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
    CurrencyId: Type.Optional(Id('Synonym of PriceTypeId (v4.1 naming).')),
    CurrencySymbol: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'PriceInput',
    // The server answers a price without either with 400 ValidationFailed naming
    // Prices.{n}.PriceTypeId; validators read the rule from the document.
    // As if/then rather than anyOf: generators ignore it, and type the price as one object.
    ...documentedOnly({
      if: {
        not: {
          properties: { CurrencyId: { type: 'integer' } },
          required: ['CurrencyId'],
          additionalProperties: true,
        },
      },
      then: {
        properties: { PriceTypeId: { type: 'integer' } },
        required: ['PriceTypeId'],
        additionalProperties: true,
      },
      description:
        'A price names its type: PriceTypeId, or its synonym CurrencyId (or both, equal).',
    }),
  },
);
export type PriceInput = Static<typeof PriceInput>;
export const PriceInputs = Type.Array(PriceInput, { maxItems: 1000 });

export const Price = Type.Object(
  {
    PriceId: Type.Integer(),
    ItemId: Type.Integer(),
    NormalPrice: Type.Number(),
    DiscountPrice: Type.Union([Type.Number(), Type.Null()]),
    PriceTypeId: Type.Integer(),
    PriceTypeSymbol: Type.String(),
  },
  { title: 'Price' },
);
export type Price = Static<typeof Price>;

export const ItemTag = Type.Object(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    Description: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ItemTag' },
);
const TagReference = Type.Object(
  {
    Id: Id(),
    Name: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
    Description: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Ignored (read-only).',
      }),
    ),
    TagMetadata: Type.Optional(Type.Unknown({ description: 'Ignored (read-only).' })),
  },
  { additionalProperties: false },
);

/** The same in the item's answers and bodies, so that a fetched item types as a body. */
const ItemStatusId = () =>
  Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 Active (default), 2 Passive.' });

const readOnly = (description = 'Ignored (read-only).') =>
  Type.Optional(Type.Unknown({ description }));

const itemFields = {
  Id: Type.Optional(
    Id('On PUT/PATCH /item the id of the item; elsewhere it must match the path or is ignored.'),
  ),
  SKU: Type.Optional(Nullable(ShortText({ description: 'Unique within the tenant.' }))),
  RFID: Type.Optional(Nullable(ShortText())),
  UUID: Type.Optional(Nullable(ShortText())),
  Name: Type.Optional(Nullable(ShortText())),
  Title: ShortText(),
  Model: Type.Optional(Nullable(ShortText())),
  ShortDescription: Type.Optional(Nullable(LongText())),
  LongDescription: Type.Optional(Nullable(LongText())),
  ItemStatusId: Type.Optional(ItemStatusId()),
  CategoryId: Type.Optional(Nullable(Id())),
  BrandId: Type.Optional(Nullable(Id())),
  DefaultItemId: Type.Optional(
    Nullable(
      Id(
        'The default item of the variant group; equal to Id for the default item itself; null for a stand-alone item. Absent: unchanged.',
      ),
    ),
  ),
  InStock: Type.Optional(Type.Boolean()),
  PublicWebLink: Type.Optional(Nullable(WebLink(2048))),
  Rating: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 5 }))),
  LikeCount: readOnly(),
  DateAdded: readOnly(),
  DateModified: readOnly(),
  Prices: Type.Optional(
    Type.Array(PriceInput, {
      maxItems: 1000,
      description: "Replaces the item's prices when present.",
    }),
  ),
  DynamicAttributes: Type.Optional(
    Type.Array(DynamicAttributeInput, {
      maxItems: 1000,
      description: "Replaces the item's dynamic attributes when present.",
    }),
  ),
  Tags: Type.Optional(
    Type.Array(TagReference, {
      maxItems: 1000,
      description: "Replaces the item's tags (by Id) when present.",
    }),
  ),
};

export const ItemBody = Type.Object(itemFields, {
  additionalProperties: false,
  title: 'ItemRequest',
  examples: [
    {
      Title: 'Studio headphones H-100',
      SKU: 'H-100-BLK',
      Name: 'H-100',
      Model: 'H-100',
      ShortDescription: 'Closed-back studio headphones',
      CategoryId: 1,
      BrandId: 1,
      InStock: true,
      Rating: 4.5,
      PublicWebLink: 'https://shop.example.com/h-100',
      Prices: [{ PriceTypeId: 1, NormalPrice: 129.9, DiscountPrice: 99.9 }],
      DynamicAttributes: [{ TypeId: 1, Value: 'Black' }],
      Tags: [{ Id: 1 }],
    },
  ],
});
export type ItemBody = Static<typeof ItemBody>;

export const ItemPatch = Type.Object(
  { ...itemFields, Title: Type.Optional(ShortText()) },
  {
    additionalProperties: false,
    title: 'ItemPatch',
    description: 'Only the fields sent change; null clears a nullable field.',
  },
);
export type ItemPatch = Static<typeof ItemPatch>;

const nullableString = Type.Union([Type.String(), Type.Null()]);
const nullableInteger = Type.Union([Type.Integer(), Type.Null()]);

export const Item = Type.Object(
  {
    Id: Type.Integer(),
    SKU: nullableString,
    RFID: nullableString,
    UUID: nullableString,
    Name: nullableString,
    Title: Type.String(),
    Model: nullableString,
    ShortDescription: nullableString,
    LongDescription: nullableString,
    ItemStatusId: ItemStatusId(),
    CategoryId: nullableInteger,
    BrandId: nullableInteger,
    DefaultItemId: nullableInteger,
    InStock: Type.Boolean(),
    PublicWebLink: nullableString,
    Rating: Type.Union([Type.Number(), Type.Null()]),
    LikeCount: Type.Integer(),
    Prices: Type.Array(Price),
    DynamicAttributes: Type.Array(DynamicAttribute),
    Tags: Type.Array(ItemTag),
    DateAdded: Type.String({ format: 'date-time' }),
    DateModified: Type.String({ format: 'date-time' }),
  },
  {
    title: 'Item',
    examples: [
      {
        Id: 1,
        SKU: 'H-100-BLK',
        RFID: null,
        UUID: null,
        Name: 'H-100',
        Title: 'Studio headphones H-100',
        Model: 'H-100',
        ShortDescription: 'Closed-back studio headphones',
        LongDescription: null,
        ItemStatusId: 1,
        CategoryId: 1,
        BrandId: 1,
        DefaultItemId: null,
        InStock: true,
        PublicWebLink: 'https://shop.example.com/h-100',
        Rating: 4.5,
        LikeCount: 0,
        Prices: [
          {
            PriceId: 1,
            ItemId: 1,
            NormalPrice: 129.9,
            DiscountPrice: 99.9,
            PriceTypeId: 1,
            PriceTypeSymbol: 'EUR',
          },
        ],
        DynamicAttributes: [{ TypeId: 1, TypeValueId: 1, Value: 'Black', TypeName: 'Colour' }],
        Tags: [{ Id: 1, Name: 'bestseller', Description: 'Top 100 of the month' }],
        DateAdded: '2025-06-10T08:30:00.000Z',
        DateModified: '2025-06-10T08:30:00.000Z',
      },
    ],
  },
);
export type Item = Static<typeof Item>;
export const ItemList = PagedResult(Item, 'ItemList');

export const ItemSearchQuery = Type.Object({
  skip: Type.Integer({ minimum: 0, default: 0 }),
  take: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  categoryId: Type.Optional(Id('Items of this category (not its subcategories).')),
  brandId: Type.Optional(Id()),
  defaultItemId: Type.Optional(Id('The items of this variant group.')),
  sku: Type.Optional(ShortText()),
  uuid: Type.Optional(ShortText()),
  itemIds: Type.Optional(
    Type.String({
      pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$',
      description: 'Comma-separated item ids.',
    }),
  ),
  includeOnlyMasterItems: Type.Optional(
    Type.Boolean({ description: 'Only stand-alone and default items, no variants.' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Words that Title, Name, SKU, Model or descriptions start with.',
    }),
  ),
});
export type ItemSearchQuery = Static<typeof ItemSearchQuery>;

export const ItemIdList = Type.Array(Id(), { minItems: 1, maxItems: 1000, title: 'ItemIds' });
export const VariantGroup = Type.Object(
  { DefaultItemId: Type.Integer(), VariantIds: Type.Array(Type.Integer()) },
  { title: 'VariantGroup' },
);
export type VariantGroup = Static<typeof VariantGroup>;
