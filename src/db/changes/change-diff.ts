// What changed between two versions of a resource, as field paths with their old and new values
// (docs/api.md, "Change history"): `Title`, `Location.Latitude`, `Prices[PriceTypeId=2].NormalPrice`,
// `Tags[Id=7]`. Arrays of objects are matched by their identifying field when every element has
// one with distinct values (an element added or removed is one change, not a shift of all that
// follow); other arrays by index (`Foo[3]`). Linear in the size of the two documents: each node
// is visited once and keyed arrays are matched through a map.
//
// Secrets never leave: a field named like one (ApplicationSecret, Password, SigningKey, Token …)
// is dropped from the data shown, and a change of it appears only as the marker "changed".

export interface FieldChange {
  Path: string;
  Old: unknown;
  New: unknown;
}

/** The identifying fields of array elements, in the order they are tried. */
const KEYS = ['Id', 'PriceTypeId', 'TypeId', 'AssetId', 'DeviceId', 'Key', 'ApplicationId'];

const SECRET = /secret|password|signingkey|token|subscriptionkey/i;

/** Whether a field's name says it holds a secret. */
export const isSecretField = (name: string) => SECRET.test(name);

/** The marker a changed secret shows instead of its values. */
export const CHANGED_SECRET = 'changed';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` without its secret fields, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    if (!isSecretField(key)) out[key] = withoutSecrets(field);
  return out;
}

/** An element's identifying value (keyOf checked it is a number or a string). */
function idOf(element: Json, key: string): string {
  const id = (element as Record<string, Json>)[key];
  return typeof id === 'number' ? String(id) : (id as string);
}

/** The identifying field that every element of both arrays has, with distinct values in each. */
function keyOf(before: Json[], after: Json[]): string | undefined {
  const all = [...before, ...after];
  if (all.length === 0 || !all.every(isObject)) return undefined;
  const objects = all;
  return KEYS.find((key) => {
    const distinct = (list: Json[]) => {
      const seen = new Set<string>();
      for (const element of list as Record<string, Json>[]) {
        const id = element[key];
        if (typeof id !== 'number' && typeof id !== 'string') return false;
        if (seen.has(String(id))) return false;
        seen.add(String(id));
      }
      return true;
    };
    return objects.every((o) => o[key] !== undefined) && distinct(before) && distinct(after);
  });
}

/** Whether two values are one scalar: nothing changed there, whatever the field holds. */
const sameScalar = (a: Json | undefined, b: Json | undefined) =>
  a === b && (typeof a !== 'object' || a === null);

const pathOf = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Adds to `out` the changes from `before` to `after` at `path` (undefined: absent); `name` is
 * the field's own name ('' for an array's element). Unchanged scalars are passed over before
 * any path is built or name checked: most fields of a version are as they were.
 */
function compare(
  path: string,
  name: string,
  before: Json | undefined,
  after: Json | undefined,
  out: FieldChange[],
) {
  if (sameScalar(before, after)) return;
  if (name && isSecretField(name)) {
    if (JSON.stringify(before ?? null) !== JSON.stringify(after ?? null))
      out.push({ Path: path, Old: null, New: CHANGED_SECRET });
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before))
      if (!sameScalar(before[key], after[key]))
        compare(pathOf(path, key), key, before[key], after[key], out);
    for (const key of Object.keys(after))
      if (!(key in before)) compare(pathOf(path, key), key, undefined, after[key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const key = keyOf(before, after);
    if (key === undefined) {
      const length = Math.max(before.length, after.length);
      for (let i = 0; i < length; i++) compare(`${path}[${i}]`, '', before[i], after[i], out);
      return;
    }
    const label = (element: Json) => `${path}[${key}=${idOf(element, key)}]`;
    const earlier = new Map(before.map((element) => [idOf(element, key), element]));
    for (const element of after) {
      const id = idOf(element, key);
      compare(label(element), '', earlier.get(id), element, out);
      earlier.delete(id);
    }
    for (const element of earlier.values()) compare(label(element), '', element, undefined, out);
    return;
  }
  if (before === undefined && after === undefined) return;
  if (scalarEqual(before, after)) return;
  out.push({
    Path: path,
    Old: before === undefined ? null : withoutSecrets(before),
    New: after === undefined ? null : withoutSecrets(after),
  });
}

function scalarEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  // An absent field and a null one read alike; objects and arrays differ from scalars.
  return (a === undefined && b === null) || (a === null && b === undefined);
}

/**
 * The changes from `before` to `after`, two versions of a resource (null: it did not exist, or
 * no longer does). A created resource shows each of its fields with Old null, a deleted one each
 * with New null.
 */
export function changesBetween(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const a = (isObject(before) ? before : {}) as Json;
  const b = (isObject(after) ? after : {}) as Json;
  compare('', '', a, b, out);
  return out;
}
