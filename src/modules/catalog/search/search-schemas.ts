// POST /private/catalog/items: the full item search (contract §5.3), its body and its answer.
import { Type, type Static } from 'typebox';
import { documentedEnum } from '../../../http/documented-only.ts';
import { Id, Nullable } from '../common-schemas.ts';
import { Item } from '../items/item-schemas.ts';

/** The orderings of OrderedPropertyName (matched without regard to case). */
export const ORDERED_PROPERTIES = ['Relevance', 'Title', 'Price', 'DateAdded', 'Rating'] as const;
export const MAX_QUERY_LENGTH = 200;

const optional = <T extends Parameters<typeof Nullable>[0]>(schema: T) =>
  Type.Optional(Nullable(schema));
const Price = (description: string) => Type.Number({ minimum: 0, maximum: 1e10, description });

export const AttributeCriterion = Type.Object(
  {
    TypeId: Id(),
    Value: Type.String({ minLength: 1, maxLength: 256, description: 'Compared without case.' }),
  },
  { additionalProperties: false, title: 'AttributeCriterion' },
);

export const ItemSearchBody = Type.Object(
  {
    Query: optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description:
          'Words over Title, Name (most weight), SKU, Model and descriptions; the last word also as a prefix; a word of 5+ letters also matches words one typo away; accents and case are ignored.',
      }),
    ),
    CategoryId: optional(Id('Items of this category and of its subcategories.')),
    BrandId: optional(Id()),
    TagId: optional(Id()),
    MinPrice: optional(Price('Lowest price (the discount price when set, else the normal one).')),
    MaxPrice: optional(Price('Highest price.')),
    PriceTypeId: optional(
      Id('The price type of MinPrice/MaxPrice and of the Price ordering; any type when left out.'),
    ),
    DynamicAttributes: Type.Optional(
      Type.Array(AttributeCriterion, {
        maxItems: 20,
        description: 'Attribute values the items must all have.',
      }),
    ),
    IncludeOnlyMasterItems: optional(
      Type.Boolean({ description: 'Only stand-alone and default items, no variants.' }),
    ),
    IncludePassiveItems: optional(
      Type.Boolean({ description: 'Also passive items (ItemStatusId 2); left out by default.' }),
    ),
    OrderedPropertyName: optional(
      Type.String({
        maxLength: 32,
        description: `${ORDERED_PROPERTIES.join(', ')} (any case). Default: Relevance with a Query, else the item Id.`,
        ...documentedEnum(ORDERED_PROPERTIES),
      }),
    ),
    OrderBy: optional(
      Type.String({
        maxLength: 8,
        description: 'Asc or Desc (any case); default Asc, and Desc (best first) for Relevance.',
        ...documentedEnum(['Asc', 'Desc']),
      }),
    ),
    Skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
    Take: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
    IncludeStaticNavigation: optional(Type.Boolean()),
    IncludeDynamicNavigation: optional(Type.Boolean()),
    IncludeDefaultImages: optional(
      Type.Boolean({
        description:
          "Also answer DefaultImages: the default image of each item of the page (a list's thumbnails).",
      }),
    ),
  },
  { additionalProperties: false, title: 'ItemSearch' },
);
export type ItemSearchBody = Static<typeof ItemSearchBody>;

const Facet = (title: string) =>
  Type.Object(
    { Id: Type.Integer(), Name: Type.String(), Count: Type.Integer() },
    { title: `${title}Facet` },
  );

/** A category's entry: its own matches, and those of its subtree (what choosing it gives). */
const CategoryFacet = Type.Object(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    Count: Type.Integer({ description: 'Matches in this category itself.' }),
    CountWithSubcategories: Type.Integer({
      description:
        'Matches in this category or any of its subcategories: the TotalItemCount that ' +
        'choosing it as CategoryId gives.',
    }),
  },
  { title: 'CategoryFacet' },
);

export const StaticNavigation = Type.Object(
  {
    Categories: Type.Array(CategoryFacet),
    Brands: Type.Array(Facet('Brand')),
    Tags: Type.Array(Facet('Tag')),
    PriceRanges: Type.Array(
      Type.Object(
        {
          PriceTypeId: Type.Integer(),
          PriceTypeSymbol: Type.String(),
          Min: Type.Number(),
          Max: Type.Number(),
        },
        { title: 'PriceRange' },
      ),
    ),
  },
  { title: 'StaticNavigation' },
);

export const DynamicNavigation = Type.Array(
  Type.Object(
    {
      TypeId: Type.Integer(),
      TypeName: Type.String(),
      Values: Type.Array(
        Type.Object(
          { TypeValueId: Type.Integer(), Value: Type.String(), Count: Type.Integer() },
          { title: 'AttributeValueFacet' },
        ),
      ),
    },
    { title: 'AttributeFacet' },
  ),
);

export const DefaultImage = Type.Object(
  {
    ItemId: Type.Integer(),
    AssetId: Type.Integer(),
    AssetUrl: Type.String({ description: 'Where the image is served (no token needed).' }),
    MimeType: Type.String(),
    FileName: Type.String(),
  },
  { title: 'DefaultImage' },
);
export type DefaultImageJson = Static<typeof DefaultImage>;

export const ItemSearchAnswer = Type.Object(
  {
    SearchResult: Type.Object(
      {
        Items: Type.Array(Item),
        TotalItemCount: Type.Integer({
          description:
            'Every match, counted exactly when CountsAreExact; otherwise estimated from a sample of the matches.',
        }),
        CountsAreExact: Type.Boolean({
          description:
            'true when TotalItemCount and every navigation Count and PriceRange are exact (a text Query with at most ' +
            'SEARCH_EXACT_COUNT_LIMIT matches, 5,000 by default, and every search without a Query); false when they ' +
            'are estimated from a sample of the matches (see the API docs for the error).',
        }),
        StaticNavigation: Type.Union([StaticNavigation, Type.Null()], {
          description: 'null unless IncludeStaticNavigation.',
        }),
        DynamicNavigation: Type.Union([DynamicNavigation, Type.Null()], {
          description: 'null unless IncludeDynamicNavigation.',
        }),
        DefaultImages: Type.Union([Type.Array(DefaultImage), Type.Null()], {
          description:
            'The default image of each item of the page that has one, by ItemId; null unless IncludeDefaultImages.',
        }),
      },
      { title: 'SearchResult' },
    ),
  },
  { title: 'ItemSearchAnswer' },
);
