// The storage module's error codes (contract §5.4).
import { DomainError, conflict, invalid, notFound } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

const MIB = 1024 * 1024;
const human = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en')} bytes`;

/** The rest of the body is not read (too-large: the connection closes after the answer). */
export const assetTooLarge = (maxBytes: number) =>
  new DomainError('too-large', 'AssetTooLarge', `An asset may have at most ${human(maxBytes)}.`);

export const invalidMimeType = (value: string) =>
  invalid('InvalidMimeType', `"${value}" is not a MIME type (type/subtype).`);

export const contentDoesNotMatchMimeType = (mimeType: string, detected: string | undefined) =>
  invalid(
    'ContentDoesNotMatchMimeType',
    detected
      ? `The bytes are ${detected}, not ${mimeType}.`
      : `The bytes are not ${mimeType} (their leading bytes are not an image of that type).`,
  );

export const unverifiableImageType = (mimeType: string) =>
  invalid(
    'UnsupportedImageType',
    `Images of type ${mimeType} cannot be checked; upload PNG, JPEG, GIF, WebP, SVG, AVIF, BMP, TIFF, ICO or HEIC, or send the file with a non-image MIME type.`,
  );

export const invalidFileBody = () =>
  invalid('InvalidFileBody', 'FileBody must be the file encoded in base64.');

export const emptyAsset = () => invalid('EmptyAsset', 'An asset must have at least one byte.');

export const invalidFileName = () =>
  invalid(
    'InvalidFileName',
    'fileName must be 1..256 characters without slashes, control characters or text-direction marks.',
  );

export const assetNotFound = (id: number) => notFound(`Asset ${id}`);

export const assetInUse = (id: number) =>
  conflict(
    'AssetInUse',
    `Asset ${id} is related to items, brands or categories; remove the relations or delete with ?force=true.`,
  );

export const rangeNotSatisfiable = (size: number) =>
  new DomainError(
    'range-not-satisfiable',
    'RangeNotSatisfiable',
    `The asset has ${size} bytes; no requested range is in it.`,
    { contentSize: size },
  );

export const assetContentNotFound = () => notFound('The asset');

export const assetNotScriptSource = () =>
  new DomainError(
    'forbidden',
    'AssetNotScriptSource',
    "An asset is never loaded as a script by a page of the tenant's own origin.",
  );

export const unreadableBody = () =>
  invalid('IncompleteBody', 'The request body ended before all of it arrived.');

/** The codes the storage module answers besides the shared ones (src/http/error-codes.ts). */
export const storageErrorCodes = {
  AssetInUse: {
    status: 409,
    meaning:
      'The asset is related to items, brands or categories; remove the relations or use force=true.',
  },
  AssetNotScriptSource: {
    status: 403,
    meaning: "An asset asked for as a script of the tenant's own pages.",
  },
  AssetTooLarge: { status: 413, meaning: 'The file is larger than ASSET_MAX_BYTES.' },
  ContentDoesNotMatchMimeType: {
    status: 400,
    meaning: 'The bytes are not of the MIME type given.',
  },
  EmptyAsset: { status: 400, meaning: 'The file has no bytes.' },
  IncompleteBody: { status: 400, meaning: 'The body ended before Content-Length bytes arrived.' },
  InvalidFileBody: { status: 400, meaning: 'FileBody is not base64.' },
  InvalidFileName: {
    status: 400,
    meaning:
      'The file name is empty, too long or has slashes, control characters or text-direction marks.',
  },
  InvalidMimeType: { status: 400, meaning: 'The MIME type is not type/subtype.' },
  MissingContentType: { status: 415, meaning: 'An upload without a Content-Type.' },
  RangeNotSatisfiable: { status: 416, meaning: 'No requested byte range is in the asset.' },
  UnsupportedImageType: {
    status: 400,
    meaning: 'An image type the server cannot check; send it with a non-image MIME type.',
  },
  UploadInterrupted: { status: 503, meaning: 'The upload took too long; send it again.' },
} as const satisfies ErrorCodes;
