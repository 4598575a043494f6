// The storage module's error codes (contract §5.4).
import { ApiError, badRequest, conflict, notFound } from '../../http/errors.ts';

const MIB = 1024 * 1024;
const human = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en')} bytes`;

/** The rest of the body is not read: the connection closes after the answer. */
export const assetTooLarge = (maxBytes: number) =>
  new ApiError(413, 'AssetTooLarge', `An asset may have at most ${human(maxBytes)}.`, {
    headers: { Connection: 'close' },
  });

export const invalidMimeType = (value: string) =>
  badRequest('InvalidMimeType', `"${value}" is not a MIME type (type/subtype).`);

export const contentDoesNotMatchMimeType = (mimeType: string, detected: string | undefined) =>
  badRequest(
    'ContentDoesNotMatchMimeType',
    detected
      ? `The bytes are ${detected}, not ${mimeType}.`
      : `The bytes are not ${mimeType} (their leading bytes are not an image of that type).`,
  );

export const unverifiableImageType = (mimeType: string) =>
  badRequest(
    'UnsupportedImageType',
    `Images of type ${mimeType} cannot be checked; upload PNG, JPEG, GIF, WebP, SVG, AVIF, BMP, TIFF, ICO or HEIC, or send the file with a non-image MIME type.`,
  );

export const invalidFileBody = () =>
  badRequest('InvalidFileBody', 'FileBody must be the file encoded in base64.');

export const emptyAsset = () => badRequest('EmptyAsset', 'An asset must have at least one byte.');

export const invalidFileName = () =>
  badRequest('InvalidFileName', 'fileName must be 1..256 characters without control characters.');

export const assetNotFound = (id: number) => notFound(`Asset ${id}`);

export const assetInUse = (id: number) =>
  conflict(
    'AssetInUse',
    `Asset ${id} is related to items, brands or categories; remove the relations or delete with ?force=true.`,
  );

export const rangeNotSatisfiable = (size: number) =>
  new ApiError(
    416,
    'RangeNotSatisfiable',
    `The asset has ${size} bytes; no requested range is in it.`,
    {
      headers: { 'Content-Range': `bytes */${size}` },
    },
  );

export const assetContentNotFound = () => notFound('The asset');

export const assetNotScriptSource = () =>
  new ApiError(
    403,
    'AssetNotScriptSource',
    "An asset is never loaded as a script by a page of the tenant's own origin.",
  );

export const unreadableBody = () =>
  badRequest('IncompleteBody', 'The request body ended before all of it arrived.');
