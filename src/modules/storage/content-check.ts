// MIME types of assets: parsing the declared one, the family a relation kind takes, and the check
// of an image's leading bytes against its declared type (contract §5.4: an image whose bytes are
// not of its MIME type is 400). Videos and documents are stored as declared.
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';
import {
  contentDoesNotMatchMimeType,
  invalidMimeType,
  unverifiableImageType,
} from './storage-errors.ts';
import { startsAsSvg } from './svg-start.ts';

export type AssetFamily = 'image' | 'video' | 'document';

const TOKEN = '[a-z0-9!#$&^_.+-]+';
const MIME = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\]*"))*)\\s*$`,
  'i',
);

/** The declared type normalized (lowercase type/subtype, parameters kept); 400 when not a MIME type. */
export function parseMimeType(value: string): string {
  if (value.length > 256) throw invalidMimeType(value);
  const match = MIME.exec(value.trim());
  if (!match) throw invalidMimeType(value);
  const params = (match[3] ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  return [`${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}`, ...params].join('; ');
}

const essence = (mimeType: string) => mimeType.split(';')[0]!.trim();

/** image/* is an image, video/* a video, anything else a document. */
export function familyOf(mimeType: string): AssetFamily {
  const type = essence(mimeType).split('/')[0];
  return type === 'image' ? 'image' : type === 'video' ? 'video' : 'document';
}

// Names that mean the same image type; the first is what file-type reports.
const SAME_TYPES: string[][] = [
  ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  ['image/png', 'image/x-png'],
  ['image/apng', 'image/png', 'image/x-png'],
  ['image/x-icon', 'image/vnd.microsoft.icon', 'image/ico'],
  ['image/bmp', 'image/x-bmp', 'image/x-ms-bmp'],
  ['image/heic', 'image/heif'],
  ['image/heif', 'image/heic'],
];

function sameType(declared: string, detected: string): boolean {
  if (declared === detected) return true;
  return SAME_TYPES.some((names) => names[0] === detected && names.includes(declared));
}

/** 400 unless the leading bytes of an image are of its declared type. */
export async function checkImageContent(mimeType: string, head: Buffer): Promise<void> {
  const declared = essence(mimeType);
  if (familyOf(declared) !== 'image') return;
  if (declared === 'image/svg+xml') {
    if (!startsAsSvg(head.toString('utf8'))) throw contentDoesNotMatchMimeType(declared, undefined);
    return;
  }
  if (!KNOWN_IMAGE_TYPES.has(declared)) throw unverifiableImageType(declared);
  const detected = await fileTypeFromBuffer(head);
  if (detected && sameType(declared, detected.mime)) return;
  throw contentDoesNotMatchMimeType(declared, detected?.mime);
}

const KNOWN_IMAGE_TYPES = new Set<string>([
  ...[...supportedMimeTypes].filter((m) => m.startsWith('image/')),
  ...SAME_TYPES.flat(),
]);
