// The import's record (one JSONL line, or one CSV row turned into the same object), the job as the
// API shows it, and the route's query. The record mirrors the item's wire shape, with references
// also by name (Category, Brand, a price's PriceTypeSymbol, an attribute's TypeName, a tag's Name)
// so that an export of one tenant imports into another whose ids differ.
import { Type, type Static } from 'typebox';
import { WebLink } from '../../../http/web-link.ts';
import { Id, LongText, Nullable, ShortText } from '../common-schemas.ts';

const Money = () => Type.Number({ minimum: 0, maximum: 9_999_999_999.99 });

export const ImportPrice = Type.Object(
  {
    PriceTypeId: Type.Optional(Id('The price type by id.')),
    PriceTypeSymbol: Type.Optional(ShortText({ description: 'The price type by its symbol.' })),
    NormalPrice: Money(),
    DiscountPrice: Type.Optional(Nullable(Money())),
  },
  { additionalProperties: false },
);

export const ImportAttribute = Type.Object(
  {
    TypeId: Type.Optional(Id('The dynamic attribute type by id.')),
    TypeName: Type.Optional(ShortText({ description: 'The type by its Description.' })),
    Value: ShortText(),
  },
  { additionalProperties: false },
);

export const ImportTag = Type.Object(
  {
    Id: Type.Optional(Id('The tag by id.')),
    Name: Type.Optional(ShortText({ description: 'The tag by name.' })),
    Description: Type.Optional(
      Nullable(Type.String({ maxLength: 4000, description: 'Used when the tag is created.' })),
    ),
  },
  { additionalProperties: false },
);

export const ImportRecord = Type.Object(
  {
    SKU: Type.Optional(Nullable(ShortText())),
    RFID: Type.Optional(Nullable(ShortText())),
    UUID: Type.Optional(Nullable(ShortText())),
    Name: Type.Optional(Nullable(ShortText())),
    Title: ShortText(),
    Model: Type.Optional(Nullable(ShortText())),
    ShortDescription: Type.Optional(Nullable(LongText())),
    LongDescription: Type.Optional(Nullable(LongText())),
    ItemStatusId: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
    InStock: Type.Optional(Type.Boolean()),
    PublicWebLink: Type.Optional(Nullable(WebLink(2048))),
    Rating: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 5 }))),
    CategoryId: Type.Optional(Nullable(Id())),
    Category: Type.Optional(Nullable(ShortText())),
    BrandId: Type.Optional(Nullable(Id())),
    Brand: Type.Optional(Nullable(ShortText())),
    GroupKey: Type.Optional(Nullable(ShortText())),
    Prices: Type.Optional(Type.Array(ImportPrice, { maxItems: 1000 })),
    DynamicAttributes: Type.Optional(Type.Array(ImportAttribute, { maxItems: 1000 })),
    Tags: Type.Optional(Type.Array(ImportTag, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type ImportRecord = Static<typeof ImportRecord>;

export const IMPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const ERROR_POLICIES = ['RejectAll', 'SkipFailedRows'] as const;
export type ErrorPolicy = (typeof ERROR_POLICIES)[number];
export type ImportState = 'Queued' | 'Running' | 'Succeeded' | 'Failed' | 'Cancelled';

const Format = Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], {
  description: 'jsonl (one JSON record a line) or csv (a header row, then one row an item).',
});
const Policy = () => Type.Union([Type.Literal('RejectAll'), Type.Literal('SkipFailedRows')]);

export const ImportQuery = Type.Object(
  {
    format: Type.Optional(Format),
    errorPolicy: Type.Optional(
      Type.Union([Type.Literal('RejectAll'), Type.Literal('SkipFailedRows')], {
        description:
          'RejectAll (default): any failed record fails the import and nothing is written. ' +
          'SkipFailedRows: failed records are reported and the others written.',
      }),
    ),
    createMissing: Type.Optional(
      Type.Boolean({
        description:
          'Create categories, brands, tags, price types and attribute types named but missing (default false: such a record fails).',
      }),
    ),
    assetId: Type.Optional(
      Id('Import this uploaded asset (POST /management/storage/asset/raw) instead of the body.'),
    ),
  },
  { additionalProperties: false },
);
export type ImportQuery = Static<typeof ImportQuery>;

export const ImportJob = Type.Object(
  {
    Id: Type.Integer(),
    State: Type.Union([
      Type.Literal('Queued'),
      Type.Literal('Running'),
      Type.Literal('Succeeded'),
      Type.Literal('Failed'),
      Type.Literal('Cancelled'),
    ]),
    Phase: Type.Union([Type.Literal('Validating'), Type.Literal('Writing')], {
      description: 'RejectAll first validates every record (Validating), then writes.',
    }),
    Format: Format,
    ErrorPolicy: Policy(),
    CreateMissing: Type.Boolean(),
    SourceAssetId: Type.Integer({ description: 'The asset holding the file.' }),
    RowsRead: Type.Integer({ description: 'Records read and settled (written or failed).' }),
    RowsWritten: Type.Integer(),
    RowsFailed: Type.Integer(),
    Percentage: Type.Number({ description: "Share of the file's bytes read, 0..100." }),
    RowsPerSecond: Type.Number({ description: 'Records read per second since the job started.' }),
    Error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why a Failed import failed.',
    }),
    ResultsUrl: Type.String({ description: 'Per-row results, JSONL.' }),
    CreatedDate: Type.String(),
    StartedDate: Type.Union([Type.String(), Type.Null()]),
    FinishedDate: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'CatalogImport' },
);
export type ImportJob = Static<typeof ImportJob>;
