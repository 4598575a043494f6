// A change history entry in a retailer's words: each change of a field ("Price “Retail”
// 19.99 → 17.99"), who made it ("anna (console)", "Pricing bot (app)", "import job #12") and
// when ("14:02" today, "3 Mar, 14:02" before). The entry names fields by their API paths
// ("Prices[PriceTypeId=2].NormalPrice", "Tags[Id=7]"); ids in them and in their values are
// named after what they stand for (a price type's description, a brand's name) when the page
// knows it. No DOM and no client here: test/modules/console/console-history-words.test.ts reads
// it in Node.

/** A field's name in words: "ShortDescription" → "Short description"; "SKU" stays. */
function labelOf(field: string): string {
  if (/^[A-Z]{2,}$/.test(field)) return field;
  const words = field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ ?Id$/, '');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase().trim();
}

/** Who made a change, as the entry names it. */
export interface HistoryActor {
  Type: string;
  Id?: string;
  Name?: string;
  /** A device's app, a job's member: an actor of this shape (the API types it loosely). */
  OnBehalfOf?: unknown;
}

const isActor = (value: unknown): value is HistoryActor =>
  typeof value === 'object' && value !== null && typeof (value as HistoryActor).Type === 'string';

export interface HistoryChange {
  Path: string;
  Old?: unknown;
  New?: unknown;
}

/** Names of the catalog's reference data by id, as far as the page has loaded them. */
export interface NameBook {
  priceTypes?: ReadonlyMap<number, string>;
  brands?: ReadonlyMap<number, string>;
  categories?: ReadonlyMap<number, string>;
  tags?: ReadonlyMap<number, string>;
  attributeTypes?: ReadonlyMap<number, string>;
}

/** One step of a field path: a property, with the key of its array entry when it has one. */
interface Step {
  name: string;
  /** `[PriceTypeId=2]` → { field: 'PriceTypeId', value: '2' }; `[3]` → { value: '3' }. */
  key?: { field?: string; value: string };
}

/** "Prices[PriceTypeId=2].NormalPrice" → its steps. */
export function stepsOf(path: string): Step[] {
  const steps: Step[] = [];
  for (const part of path.match(/[^.[\]]+(?:\[[^\]]*\])?/g) ?? []) {
    const match = /^([^[]+)(?:\[(?:([^=\]]+)=)?([^\]]*)\])?$/.exec(part);
    if (!match) continue;
    const [, name = part, field, value] = match;
    steps.push(value === undefined ? { name } : { name, key: { field, value } });
  }
  return steps;
}

/**
 * Fields that say nothing to a retailer: timestamps, derived names and ids of rows the API
 * renumbers when it replaces them (a price's PriceId). Their changes are left out.
 */
const QUIET = new Set([
  'DateAdded',
  'DateModified',
  'PriceId',
  'ItemId',
  'PriceTypeSymbol',
  'TypeName',
  'TypeValueId',
  'ParentCategoryName',
  'SubCategoryCount',
]);

/** Words for fields whose names are not words already (labelOf splits the others). */
const FIELD_WORDS: Record<string, string> = {
  Title: 'Title',
  NormalPrice: 'Price',
  DiscountPrice: 'Sale price',
  ItemStatusId: 'Status',
  BrandId: 'Brand',
  CategoryId: 'Category',
  ParentCategoryId: 'Parent category',
  DefaultItemId: 'Variant of',
  InStock: 'In stock',
  PublicWebLink: 'Web link',
};

const NAMED_BY_ID: Record<string, keyof NameBook> = {
  BrandId: 'brands',
  CategoryId: 'categories',
  ParentCategoryId: 'categories',
};

const MAX_TEXT = 80;

/** A value as a sentence shows it: text quoted, numbers as they are, nothing as "(empty)". */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const text = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
    return `“${text}”`;
  }
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : `${value.length} entries`;
  // An object (a whole price or attribute): its fields that speak, briefly.
  const shown = Object.entries(value as Record<string, unknown>)
    .filter(([field]) => !QUIET.has(field) && !field.endsWith('Id'))
    .map(([field, v]) => `${FIELD_WORDS[field] ?? labelOf(field)} ${valueWords(v)}`);
  const text = shown.join(', ');
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text || '(set)';
}

const nameIn = (book: ReadonlyMap<number, string> | undefined, id: string | number) =>
  book?.get(Number(id));

/** The words of an array entry's key: "“Retail”" for a price type the page knows. */
function entryName(step: Step, names: NameBook): string {
  const key = step.key!;
  const known =
    step.name === 'Prices' && key.field === 'PriceTypeId'
      ? nameIn(names.priceTypes, key.value)
      : step.name === 'Tags' && key.field === 'Id'
        ? nameIn(names.tags, key.value)
        : step.name === 'DynamicAttributes' && key.field === 'TypeId'
          ? nameIn(names.attributeTypes, key.value)
          : undefined;
  if (known !== undefined) return `“${known}”`;
  if (key.field === 'Key') return `“${key.value}”`;
  return key.field === undefined ? `${Number(key.value) + 1}` : `#${key.value}`;
}

/** The singular of an array's name, for one of its entries: Prices → Price. */
const ENTRY_WORDS: Record<string, string> = {
  Prices: 'Price',
  Tags: 'Tag',
  DynamicAttributes: 'Attribute',
  CategoryMetadata: 'Metadata',
  Roles: 'Role',
};

/** The label of a field path: "Price “Retail”", "Sale price “Retail”", "Tag “winter”", "Title". */
export function pathLabel(path: string, names: NameBook = {}): string {
  const steps = stepsOf(path);
  const words: string[] = [];
  steps.forEach((step, index) => {
    const last = index === steps.length - 1;
    if (step.key) {
      const entry = ENTRY_WORDS[step.name] ?? labelOf(step.name);
      words.push(`${entry} ${entryName(step, names)}`);
      return;
    }
    // A price's amount reads as the price itself: "Price “Retail”", "Sale price “Retail”".
    if (index > 0 && steps[index - 1]!.name === 'Prices') {
      if (step.name === 'NormalPrice') return;
      if (step.name === 'DiscountPrice') {
        words[words.length - 1] = words[words.length - 1]!.replace(/^Price/, 'Sale price');
        return;
      }
    }
    // An attribute's or metadata entry's value is the entry itself.
    if (index > 0 && step.name === 'Value' && last) return;
    words.push(FIELD_WORDS[step.name] ?? labelOf(step.name));
  });
  return words.join(' ') || path;
}

/** A value of the field, with the id named when the page knows it (a brand's name). */
function fieldValue(field: string | undefined, value: unknown, names: NameBook): string {
  if (field === 'ItemStatusId' && (value === 1 || value === 2))
    return value === 2 ? 'Passive' : 'Active';
  const book = field ? NAMED_BY_ID[field] : undefined;
  if (book && (typeof value === 'number' || typeof value === 'string')) {
    const name = nameIn(names[book], value);
    return name === undefined ? `#${value}` : `“${name}”`;
  }
  if (field === 'DefaultItemId' && typeof value === 'number') return `item #${value}`;
  // An attribute's whole entry added or removed: its value speaks for it.
  if (value && typeof value === 'object' && 'Value' in value && !Array.isArray(value))
    return valueWords(value.Value);
  if (value && typeof value === 'object' && 'NormalPrice' in value && !Array.isArray(value)) {
    const price = value as { NormalPrice: unknown; DiscountPrice?: unknown };
    return price.DiscountPrice === null || price.DiscountPrice === undefined
      ? valueWords(price.NormalPrice)
      : `${valueWords(price.NormalPrice)} (sale ${valueWords(price.DiscountPrice)})`;
  }
  return valueWords(value);
}

/** Whether the change is one a retailer reads (not a timestamp or a renumbered row's id). */
export function isTelling(change: HistoryChange): boolean {
  const steps = stepsOf(change.Path);
  const last = steps[steps.length - 1];
  return last === undefined || !QUIET.has(last.name) || last.key !== undefined;
}

/** One change in words: "Price “Retail” 19.99 → 17.99", "Tag “winter” added". */
export function changeWords(change: HistoryChange, names: NameBook = {}): string {
  const label = pathLabel(change.Path, names);
  const steps = stepsOf(change.Path);
  const last = steps[steps.length - 1];
  const field = last?.key ? undefined : last?.name;
  const absent = (v: unknown) => v === null || v === undefined;
  // A secret is never shown, only that it changed ("Secret": "changed").
  if (/secret/i.test(change.Path) && (change.New === 'changed' || change.Old === 'changed'))
    return `${label} changed`;
  if (last?.key && absent(change.Old) && !absent(change.New)) {
    const added = fieldValue(field, change.New, names);
    return last.name === 'Tags' || added === '(set)'
      ? `${label} added`
      : `${label} added: ${added}`;
  }
  if (last?.key && absent(change.New) && !absent(change.Old)) return `${label} removed`;
  return `${label} ${fieldValue(field, change.Old, names)} → ${fieldValue(field, change.New, names)}`;
}

/** Who made the change: "anna (console)", "Pricing bot (app)", "import job #12", "the system". */
export function actorWords(actor: HistoryActor | undefined): string {
  if (!actor) return 'the system';
  const name = actor.Name ?? (actor.Id !== undefined ? `#${actor.Id}` : undefined);
  switch (actor.Type) {
    case 'Member':
      return `${name ?? 'a member'} (console)`;
    case 'App':
      return `${name ?? 'an app'} (app)`;
    case 'Device': {
      const device = `device ${actor.Id ?? ''}`.trim();
      return isActor(actor.OnBehalfOf) ? `${device} of ${actorWords(actor.OnBehalfOf)}` : device;
    }
    case 'Job': {
      const kind = jobKind(actor.Name);
      const job = `${kind} job${actor.Id !== undefined ? ` #${actor.Id}` : ''}`;
      return isActor(actor.OnBehalfOf) ? `${job}, started by ${actorWords(actor.OnBehalfOf)}` : job;
    }
    default:
      return 'the system';
  }
}

/** A job's kind in a word: "catalog-import" → "import". */
function jobKind(name: string | undefined): string {
  if (!name) return 'a';
  if (/import/i.test(name)) return 'import';
  if (/export/i.test(name)) return 'export';
  return name.replace(/[-_.]+/g, ' ');
}

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() &&
  a.getMonth() === b.getMonth() &&
  a.getDate() === b.getDate();

/** When: "14:02" today, "3 Mar, 14:02" this year, "3 Mar 2025, 14:02" before (local time). */
export function timeWords(iso: string, now = new Date(), locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = at.toLocaleTimeString(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  if (sameDay(at, now)) return time;
  const date = at.toLocaleDateString(locale, {
    day: 'numeric',
    month: 'short',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${date}, ${time}`;
}

/** What the entry did, in a few words: "Changed", "Created “Wool coat”", "Restored version 2". */
export function actionWords(entry: {
  Action: string;
  RestoredFrom?: number | null;
  Changes: HistoryChange[];
}): string {
  const named = nameOf(entry);
  switch (entry.Action) {
    case 'created':
      return named ? `Created ${named}` : 'Created';
    case 'deleted':
      return named ? `Deleted ${named}` : 'Deleted';
    case 'restored':
      return entry.RestoredFrom != null
        ? `Restored version ${entry.RestoredFrom}`
        : 'Restored an earlier version';
    case 'status_changed':
      return 'Status changed';
    default:
      return 'Changed';
  }
}

/** The resource's name from a created or deleted entry's changes (its Title, Name…). */
function nameOf(entry: { Action: string; Changes: HistoryChange[] }): string | undefined {
  const side = entry.Action === 'deleted' ? 'Old' : 'New';
  for (const field of ['Title', 'Name', 'Description', 'DeviceId', 'Email', 'UserName']) {
    const value = entry.Changes.find((c) => c.Path === field)?.[side];
    if (typeof value === 'string' && value !== '') return valueWords(value);
  }
  return undefined;
}

/** The changes an entry lists: none for a created or deleted one (its summary says it). */
export function listedChanges(entry: { Action: string; Changes: HistoryChange[] }) {
  if (entry.Action === 'created' || entry.Action === 'deleted') return [];
  return entry.Changes.filter(isTelling);
}

/** The names of the catalog's reference data, from what an editor loads as its choices. */
export function namesOfChoices(choices: {
  priceTypes: { Id: number; Description: string }[];
  brands: { Id: number; Name: string }[];
  tags: { Id: number; Name: string }[];
  attributeTypes: { Id: number; Description: string }[];
  categories: { category: { Id: number }; path: string }[];
}): NameBook {
  return {
    priceTypes: new Map(choices.priceTypes.map((p) => [p.Id, p.Description])),
    brands: new Map(choices.brands.map((b) => [b.Id, b.Name])),
    tags: new Map(choices.tags.map((t) => [t.Id, t.Name])),
    attributeTypes: new Map(choices.attributeTypes.map((a) => [a.Id, a.Description])),
    categories: new Map(choices.categories.map((c) => [c.category.Id, c.path])),
  };
}
