// The API's errors in a retailer's words: one mapping from the error body's Code and its field
// errors (`Errors`: a field path such as `Prices.0.NormalPrice` and a validator's message such as
// "must be >= 0") to sentences, so that every form says the same thing the same way. A form
// names its fields (`labels`, field path → the label the user sees); a field error is shown next
// to its field, and the banner says what is left.
import { ApiFailure } from './api.ts';

export interface ExplainedFailure {
  /** One sentence for the banner. */
  message: string;
  /** Field path (as the API names it) → sentence, shown next to that field. */
  fields: Record<string, string>;
}

/** Field path → label; `*` stands for a list index (`Prices.*.NormalPrice`). */
export type FieldLabels = Record<string, string>;

/**
 * Sentences for the codes whose FriendlyDescription speaks of ids or rules, not of the task; the
 * other codes' FriendlyDescription is plain already ("A brand named \"Acme\" already exists.").
 */
const CODE_SENTENCES: Record<string, string> = {
  DuplicateSku: 'Another item already has this SKU. Choose a different one.',
  DuplicatePriceType: 'A price type with this symbol already exists.',
  DuplicateCategoryName: 'A category with this name already exists at this place in the tree.',
  StoreHasPhysicalDevices:
    'This store still has devices. Move them to another store or delete them first.',
  DuplicatePhysicalDeviceId: 'Another device already has this device id.',
  UnknownStore: 'The chosen store no longer exists. Choose another one.',
  CategoryCycle: 'A category cannot be moved under itself or under one of its own subcategories.',
  InsufficientPermission: 'Your role does not allow this. Ask the account owner.',
  PreconditionFailed:
    'Someone else changed this while you were editing. Reload to see their changes, then edit again.',
  HistoryConflict:
    'Someone changed this after the history was shown. Their change is now at the top of the history; restore again if you still want to.',
  HistoryVersionNotFound: 'This version is no longer in the history. Reload the page.',
  RateLimited: 'Too many requests at once. Wait a moment and try again.',
  AssetTooLarge: 'This file is too large to upload.',
  UnknownRole: 'One of the chosen roles does not exist any more. Reload the page and choose again.',
  InvalidServiceName:
    'The service name must be 2 to 50 letters, digits or hyphens, start with a letter and not end with a hyphen.',
  InvalidAdminMail: 'Enter a valid e-mail address, like name@example.com.',
  InvalidServiceTier: 'Choose one of the offered tiers.',
};

/**
 * Codes that are about one field although the body names none (a duplicate, a rule the service
 * checks): their sentence goes next to that field too, and leaves with it.
 */
const CODE_FIELDS: Record<string, string> = {
  AlreadyMember: 'Email',
  DuplicateInvitation: 'Email',
  InvalidServiceName: 'ServiceName',
  ServiceNameTaken: 'ServiceName',
  InvalidAdminMail: 'AdminMail',
  InvalidServiceTier: 'ServiceTier',
  DuplicateBrandName: 'Name',
  DuplicateTagName: 'Name',
  DuplicateAttributeType: 'Description',
  DuplicatePriceType: 'PriceTypeSymbol',
  DuplicateCategoryName: 'Name',
};

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

/** Validator messages (Ajv's wording) → a sentence about the field the user sees. */
const MESSAGE_RULES: [RegExp, (label: string, match: RegExpMatchArray) => string][] = [
  [
    new RegExp(`^must be >= ${NUMBER}$`),
    (l, m) => (Number(m[1]) === 0 ? `${l} cannot be negative.` : `${l} must be at least ${m[1]}.`),
  ],
  [
    new RegExp(`^must be > ${NUMBER}$`),
    (l, m) =>
      Number(m[1]) === 0 ? `${l} must be more than zero.` : `${l} must be more than ${m[1]}.`,
  ],
  [new RegExp(`^must be <= ${NUMBER}$`), (l, m) => `${l} must be at most ${m[1]}.`],
  [new RegExp(`^must be < ${NUMBER}$`), (l, m) => `${l} must be less than ${m[1]}.`],
  [/^must NOT have fewer than 1 characters$/, (l) => `${l} cannot be empty.`],
  [
    /^must NOT have fewer than (\d+) characters$/,
    (l, m) => `${l} must be at least ${m[1]} characters long.`,
  ],
  [
    /^must NOT have more than (\d+) characters$/,
    (l, m) => `${l} can be at most ${m[1]} characters long.`,
  ],
  [
    /^must NOT have fewer than 1 items$/,
    (l) => {
      const one = singular(l);
      return one ? `Choose at least one ${one}.` : `Choose at least one: ${lower(l)}.`;
    },
  ],
  [/^must NOT have fewer than (\d+) items$/, (l, m) => `Choose at least ${m[1]}: ${lower(l)}.`],
  [/^must NOT have more than (\d+) items$/, (l, m) => `Choose at most ${m[1]}: ${lower(l)}.`],
  [/^must match pattern "\^\[\^\/\]\+\$"$/, (l) => `${l} cannot contain a slash (/).`],
  [/^must match pattern/, (l) => `${l} contains characters that are not allowed.`],
  [/^must match format "email"$/, (l) => `${l} must be an e-mail address, like name@example.com.`],
  [
    /^must match format "uri"$/,
    (l) => `${l} must be a full web address, like https://example.com.`,
  ],
  [/^must match format "date(-time)?"$/, (l) => `${l} must be a date.`],
  [/^must be integer$/, (l) => `${l} must be a whole number.`],
  [/^must be number$/, (l) => `${l} must be a number.`],
  [
    /^must be equal to one of the allowed values$/,
    (l) => `Choose one of the offered values for ${lower(l)}.`,
  ],
  [/^must have required property '([^']+)'$/, (l) => `${l} is required.`],
  [/does not exist$/, (l) => `The chosen ${lower(l)} no longer exists. Choose another one.`],
  [/^must be unique|already exists|duplicate/i, (l) => `${l} is already used. Choose another one.`],
];

function lower(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** One of a plural label ("Roles" → "role", "Categories" → "category"); else undefined. */
function singular(label: string): string | undefined {
  const plural = lower(label);
  if (/[^aeiou]ies$/.test(plural)) return `${plural.slice(0, -3)}y`;
  if (/[^su]s$/.test(plural) && !/(ss|is)$/.test(plural)) return plural.slice(0, -1);
  return undefined;
}

/** The label of a field path: the form's own, else the path's last word split into words. */
export function labelOf(path: string, labels: FieldLabels = {}): string {
  const pattern = path.replace(/\.\d+(?=\.|$)/g, '.*');
  const own = labels[path] ?? labels[pattern];
  if (own) return own;
  const last =
    pattern
      .split('.')
      .filter((part) => part !== '*')
      .pop() ?? path;
  // An abbreviation (SKU, RFID, UUID) stays as it is written.
  if (/^[A-Z]{2,}$/.test(last)) return last;
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/Id$/, '');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase().trim();
}

/** One field error in plain words. */
export function fieldSentence(path: string, message: string, labels: FieldLabels = {}): string {
  // "must have required property 'X'" is reported on the parent: the field is X.
  const required = /^must have required property '([^']+)'$/.exec(message);
  const label = labelOf(required ? (path ? `${path}.${required[1]}` : required[1]!) : path, labels);
  for (const [rule, sentence] of MESSAGE_RULES) {
    const match = rule.exec(message);
    if (match) return sentence(label, match);
  }
  return `${label}: ${message}.`;
}

/** The field path a field error belongs to (a missing property names the property). */
export function fieldPathOf(path: string, message: string): string {
  const required = /^must have required property '([^']+)'$/.exec(message);
  if (!required) return path;
  return path ? `${path}.${required[1]}` : required[1]!;
}

/** Any failure (an ApiFailure, a network error, anything thrown) in plain words. */
export function explainFailure(error: unknown, labels: FieldLabels = {}): ExplainedFailure {
  if (!(error instanceof ApiFailure)) {
    if (error instanceof TypeError)
      return {
        message: 'The server could not be reached. Check the connection and try again.',
        fields: {},
      };
    return { message: error instanceof Error ? error.message : String(error), fields: {} };
  }
  const fields: Record<string, string> = {};
  for (const { Field, Message } of error.body.Errors ?? []) {
    const path = fieldPathOf(Field, Message);
    fields[path] ??= fieldSentence(Field, Message, labels);
  }
  const code = error.body.Code ?? '';
  const codeField = CODE_FIELDS[code];
  if (codeField !== undefined)
    fields[codeField] ??=
      CODE_SENTENCES[code] ?? error.body.FriendlyDescription ?? `${labelOf(codeField, labels)}?`;
  const count = Object.keys(fields).length;
  const message =
    CODE_SENTENCES[code] ??
    (count > 0
      ? count === 1
        ? Object.values(fields)[0]!
        : 'Some fields need attention; see the messages next to them.'
      : error.status >= 500
        ? 'Something went wrong on the server. Try again in a moment.'
        : (error.body.FriendlyDescription ?? `The server refused the request (${error.status}).`));
  return { message, fields };
}
