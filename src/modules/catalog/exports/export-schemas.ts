// POST /private/catalog/exports: which items (the full search's filters) and the file format;
// the job as the API shows it.
import { Type, type Static } from 'typebox';
import { PagedResult } from '../../../http/paging.ts';
import { Id } from '../common-schemas.ts';

const Format = Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], {
  description: 'jsonl (default) or csv; the layout the import reads (docs/api.md).',
});

export const ExportBody = Type.Object(
  {
    Format: Type.Optional(Format),
    Query: Type.Optional(
      Type.Union([Type.String({ maxLength: 256 }), Type.Null()], {
        description: 'Full text, as the search: every word, the last one also as a prefix.',
      }),
    ),
    CategoryId: Type.Optional(
      Type.Union([Id(), Type.Null()], { description: 'The category and its subcategories.' }),
    ),
    BrandId: Type.Optional(Type.Union([Id(), Type.Null()])),
    TagId: Type.Optional(Type.Union([Id(), Type.Null()])),
    IncludePassiveItems: Type.Optional(
      Type.Boolean({ description: 'Passive items too (default true: the whole catalog).' }),
    ),
  },
  { additionalProperties: false, title: 'CatalogExportRequest' },
);
export type ExportBody = Static<typeof ExportBody>;

export const ExportJob = Type.Object(
  {
    Id: Type.Integer(),
    State: Type.Union([
      Type.Literal('Queued'),
      Type.Literal('Running'),
      Type.Literal('Succeeded'),
      Type.Literal('Failed'),
    ]),
    Format,
    ItemsWritten: Type.Integer(),
    AssetId: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The file, once Succeeded (an asset of the tenant); null when a JSONL export has nothing to write.',
    }),
    AssetUrl: Type.Union([Type.String(), Type.Null()]),
    Error: Type.Union([Type.String(), Type.Null()]),
    CreatedDate: Type.String(),
    StartedDate: Type.Union([Type.String(), Type.Null()]),
    FinishedDate: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'CatalogExport' },
);
export type ExportJob = Static<typeof ExportJob>;
export const ExportList = PagedResult(ExportJob, 'CatalogExportList');
