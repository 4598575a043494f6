import { Type, type Static } from 'typebox';
import { PagedResult } from '../../http/paging.ts';

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

export const AssetIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

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
