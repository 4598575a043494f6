// The import's record (one JSONL line, or one CSV row turned into the same object), the job as the
// API shows it, and the route's query. The record is the item's body (its fields and limits taken
// from the item schemas), with references also by name (Category, Brand, a price's
// PriceTypeSymbol, an attribute's TypeName, a tag's Name) so that an export of one tenant imports
// into another whose ids differ. Its fields keep their order: validation reports problems in it.
import type { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { PagedResult } from '../../../http/paging.ts';
import { AssetId, Id, Nullable, ShortText } from '../common-schemas.ts';
import { ItemBody, PriceInput } from '../items/item-schemas.ts';
import { MAX_CATEGORY_DEPTH } from '../categories/category-depth.ts';

const item = ItemBody.properties;
const price = PriceInput.properties;

export const ImportPrice = Type.Object(
  {
    PriceTypeId: Type.Optional(Id('The price type by id.')),
    PriceTypeSymbol: Type.Optional(ShortText({ description: 'The price type by its symbol.' })),
    NormalPrice: price.NormalPrice,
    DiscountPrice: price.DiscountPrice,
  },
  { additionalProperties: false },
);

// Unlike the item's body, an attribute names its type by id or by name, and has a value.
export const ImportAttribute = Type.Object(
  {
    TypeId: Type.Optional(Id('The dynamic attribute type by id.')),
    TypeName: Type.Optional(ShortText({ description: 'The type by its Description.' })),
    Value: ShortText(),
  },
  { additionalProperties: false },
);

// Unlike the item's body, a tag is named by id or by name, and may be created from the record.
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

const ByName = () => Type.Optional(Nullable(ShortText()));

/** A category by the names on its way from the root (siblings told apart by name). */
export const CategoryPath = Type.Array(ShortText(), {
  minItems: 1,
  // A path is as long as its category is deep (category-depth.ts).
  maxItems: MAX_CATEGORY_DEPTH,
  description: 'The names from the root category down to this one.',
});

// An asset is named by its id in this tenant, or by its content: assets are not copied by an
// import, so an exported file names them by what survives a copy (the bytes and the file name).
export const ImportAsset = Type.Object(
  {
    AssetId: Type.Optional(AssetId('The asset by id (in the tenant imported into).')),
    Sha256: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{64}$',
        description: "The asset by its bytes' SHA-256 (hex; the ETag of its AssetUrl).",
      }),
    ),
    FileName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Must be the asset’s, if given.' }),
    ),
    MimeType: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Must be the asset’s, if given.' }),
    ),
    IsDefault: Type.Optional(
      Type.Boolean({ description: 'The default of its kind (image, video, document).' }),
    ),
  },
  { additionalProperties: false },
);
export type ImportAsset = Static<typeof ImportAsset>;
export const ImportAssets = Type.Array(ImportAsset, { maxItems: 1000 });

export const ImportRecord = Type.Object(
  {
    RecordType: Type.Optional(
      Type.Literal('Item', { description: 'Absent or Item: an item (other record types below).' }),
    ),
    SKU: item.SKU,
    RFID: item.RFID,
    UUID: item.UUID,
    Name: item.Name,
    Title: item.Title,
    Model: item.Model,
    ShortDescription: item.ShortDescription,
    LongDescription: item.LongDescription,
    ItemStatusId: item.ItemStatusId,
    InStock: item.InStock,
    PublicWebLink: item.PublicWebLink,
    Rating: item.Rating,
    CategoryId: item.CategoryId,
    Category: ByName(),
    CategoryPath: Type.Optional(CategoryPath),
    BrandId: item.BrandId,
    Brand: ByName(),
    GroupKey: Type.Optional(
      Nullable(ShortText({ description: 'Records with the same key form a variant group.' })),
    ),
    Prices: Type.Optional(Type.Array(ImportPrice, { maxItems: 1000 })),
    DynamicAttributes: Type.Optional(Type.Array(ImportAttribute, { maxItems: 1000 })),
    Tags: Type.Optional(Type.Array(ImportTag, { maxItems: 1000 })),
    Assets: Type.Optional(ImportAssets),
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
      AssetId(
        'Import this uploaded asset (POST /management/storage/asset/raw) instead of the body.',
      ),
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
export const ImportList = PagedResult(ImportJob, 'CatalogImportList');

/** The per-row results: JSON Lines, streamed as the import settles records. */
export const ImportResults = {
  description: 'One JSON object a line, in file order, for the records settled so far',
  content: {
    'application/x-ndjson': {
      // Text on the wire; to the handler's types, the stream it sends.
      schema: Type.Unsafe<Readable>({
        type: 'string',
        description:
          'Each line {"Line","SKU","Title","Status":"Written","ItemId"} or {"Line","SKU","Title","Status":"Failed",' +
          '"Errors":[{"Field","Message"}] (at most 100; ErrorsOmitted counts the rest)}; SKU and Title as the record gives them (absent when it gives none), ' +
          'each Message a sentence naming the value at fault and what to do.',
      }),
    },
  },
};
