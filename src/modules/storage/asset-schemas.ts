import { Type, type Static } from 'typebox';
import { PagedResult } from '../../http/paging.ts';
import { withHeaders, type ResponseHeaders } from '../../http/response-headers.ts';

export const AssetBody = Type.Object(
  {
    Id: Type.Optional(Type.Integer({ description: 'Ignored: the server assigns the id.' })),
    FileName: Type.String({ minLength: 1, maxLength: 256 }),
    MimeType: Type.String({
      minLength: 3,
      maxLength: 256,
      description: 'type/subtype; image/*, video/* or anything else (a document).',
    }),
    FileBody: Type.String({ minLength: 1, description: 'The file, base64-encoded.' }),
  },
  { additionalProperties: false, title: 'AssetRequest' },
);
export type AssetBody = Static<typeof AssetBody>;

export const Asset = Type.Object(
  {
    Id: Type.Integer(),
    FileName: Type.String(),
    MimeType: Type.String(),
    Size: Type.Integer({ description: 'Bytes.' }),
    AssetUrl: Type.String({
      description: 'Serves the bytes without a token: {tenant base URL}/storage/blobs/{key}.',
    }),
  },
  { title: 'Asset' },
);
export type AssetJson = Static<typeof Asset>;
export const AssetList = PagedResult(Asset, 'AssetList');

/** Asset ids are bigint, JSON integers up to 2^53 - 1 on the wire (docs/api.md, "Ids"). */
export const AssetIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});

export const RawUploadQuery = Type.Object({
  fileName: Type.String({ minLength: 1, maxLength: 256, description: 'The name of the file.' }),
});

export const DeleteAssetQuery = Type.Object({
  force: Type.Boolean({
    default: false,
    description:
      'Also remove the relations to items, brands and categories (else 409 while related).',
  }),
});

export const AssetKeyParams = Type.Object({ key: Type.String() });

// The answers of an asset's bytes (GET and HEAD at its AssetUrl). Their media type is the
// asset's own (a range set is multipart/byteranges), so the document names any.
const Bytes = Type.String({ format: 'binary' });
const ContentHeaders: ResponseHeaders = {
  ETag: {
    type: 'string',
    required: true,
    description: 'The quoted SHA-256 of the bytes; send it as If-None-Match or If-Range.',
  },
  'Cache-Control': { type: 'string', required: true, description: 'public, max-age=86400' },
};
const BytesHeaders: ResponseHeaders = {
  ...ContentHeaders,
  'Accept-Ranges': { type: 'string', required: true, description: 'bytes' },
  'Content-Disposition': {
    type: 'string',
    required: true,
    description:
      'inline with the file name, or attachment for HTML, XHTML, SVG, XML and JavaScript.',
  },
};
export const AssetContentResponses = {
  200: {
    description: 'The whole asset, as its MimeType',
    headers: BytesHeaders,
    content: { '*/*': { schema: Bytes } },
  },
  206: {
    description:
      'The one range asked for, as its MimeType with Content-Range; several as ' +
      'multipart/byteranges, each part with its own Content-Range',
    headers: {
      ...BytesHeaders,
      'Content-Range': {
        type: 'string',
        description: 'bytes <first>-<last>/<size> (one range only)',
      },
    },
    content: { '*/*': { schema: Bytes } },
  },
  304: {
    type: 'null',
    description: 'Not modified: If-None-Match names the current ETag',
    headers: ContentHeaders,
  },
  403: { description: 'A same-origin script load (AssetNotScriptSource)', $ref: 'ErrorBody#' },
  416: withHeaders(
    { description: 'No range asked for is satisfiable', $ref: 'ErrorBody#' },
    {
      'Content-Range': {
        type: 'string',
        required: true,
        description: 'bytes */<size>',
      },
    },
  ),
};

/**
 * The media types the document lists for the raw upload's body. The server takes any
 * type/subtype; a generated client sends the first one listed unless told (so never `*\/*`,
 * which is no media type and was refused 400 InvalidMimeType), and a validator checks the
 * Content-Type against the list, so each registered top-level type is there as a range.
 */
export const UPLOAD_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'video/mp4',
  'video/webm',
  'application/pdf',
  'application/octet-stream',
  'text/csv',
  'application/x-ndjson',
  'application/*',
  'audio/*',
  'font/*',
  'image/*',
  'model/*',
  'text/*',
  'video/*',
];
