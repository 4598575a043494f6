// The file formats an import reads and the MIME types that name them: a body's Content-Type
// chooses the format when the query gives none, and a stored import file gets its format's type.
import { invalid } from '../../../domain/domain-error.ts';
import type { ImportFormat } from './import-schemas.ts';

/** The MIME type an import file of this format is stored as. */
export const MIME_TYPE_OF_FORMAT: Record<ImportFormat, string> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
};

const FORMAT_OF_MIME: Record<string, ImportFormat> = {
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/jsonlines': 'jsonl',
  'text/csv': 'csv',
};

/** The Content-Types an import's body may have. */
export const IMPORT_MIME_TYPES = Object.keys(FORMAT_OF_MIME);

export const formatOfMimeType = (mimeType: string | undefined): ImportFormat | undefined =>
  mimeType ? FORMAT_OF_MIME[mimeType.split(';')[0]!.trim().toLowerCase()] : undefined;

export const formatRequired = () =>
  invalid(
    'ImportFormatRequired',
    `Give format=jsonl or format=csv, or send the body as ${IMPORT_MIME_TYPES.join(', ')}.`,
    [{ Field: 'format', Message: 'is required for this content type' }],
  );
