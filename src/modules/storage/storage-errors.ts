// The storage module's error codes (contract §5.4).
import { DomainError, conflict, invalid, notFound } from '../../domain/domain-error.ts';

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
