// Validation of ingested records (per counter, the fields of analytics-counters.ts) and the
// identity-token stamp.
import type { FieldError } from '../../domain/domain-error.ts';
import { isWebLink } from '../../domain/web-link.ts';
import { counterNamed, type CounterSpec, type FieldSpec } from './analytics-counters.ts';

/** A record ready to store. */
export interface PreparedRecord {
  counter: CounterSpec;
  createdAt: Date;
  itemId: number | null;
  storeId: number | null;
  physicalDeviceId: string | null;
  record: Record<string, unknown>;
}

export interface DeviceStampValue {
  PhysicalDeviceId: string;
  PhysicalDeviceDescription: string | null;
  StoreId: number | null;
  StoreName: string | null;
}

/** Clock skew allowed for a CreatedDate ahead of the server's clock. */
export const CLOCK_SKEW_MS = 60_000;
const MAX_STRING = 256;
const MAX_TEXT = 4000;
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO 8601 date-time with a zone (Z or an offset).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const PROFILE_FIELDS = new Set(['Id', 'PhotoUrl', 'DisplayName', 'FirstName', 'LastName']);

const isInt = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX;
// The API's ids, within what a JSON number holds exactly (negative ones, as v4's clients may send,
// are kept as they are).
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

function fieldProblem(spec: FieldSpec, value: unknown): string | undefined {
  if (value === null) return spec.required ? 'is required' : undefined;
  switch (spec.type) {
    case 'id':
      return isId(value) ? undefined : 'must be an integer id (at most 2^53 - 1 either way)';
    case 'int':
      return isInt(value) ? undefined : 'must be a 32-bit integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? undefined : 'must be a GUID';
    case 'string':
    case 'text': {
      const max = spec.type === 'text' ? MAX_TEXT : MAX_STRING;
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > max) return `must be at most ${max} characters`;
      // PostgreSQL text cannot hold NUL; refused here rather than failing the whole batch's COPY.
      if (value.includes('\0')) return 'must not contain NUL characters';
      // A lone surrogate is stored as a \uD800-style escape that PostgreSQL's JSON functions
      // refuse: one such record would fail the tenant's trending job on every run.
      return value.isWellFormed() ? undefined : 'must be well-formed Unicode (no lone surrogates)';
    }
    case 'intArray':
      if (!Array.isArray(value) || value.length > 1000) return 'must be an array of integers';
      return value.every(isInt) ? undefined : 'must be an array of integers';
    case 'profiles':
      if (!Array.isArray(value) || value.length > 1000) return 'must be an array of user profiles';
      for (const profile of value) {
        if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
          return 'must be an array of user profiles';
        for (const [key, v] of Object.entries(profile as Record<string, unknown>)) {
          if (!PROFILE_FIELDS.has(key)) return `has an unknown profile field "${key}"`;
          if (v !== null && (typeof v !== 'string' || v.length > MAX_STRING))
            return `profile field ${key} must be a string of at most ${MAX_STRING} characters`;
          if (typeof v === 'string' && (v.includes('\0') || !v.isWellFormed()))
            return `profile field ${key} must be well-formed Unicode without NUL characters`;
          // Reports show it as a link or an image: no javascript:, data: or vbscript: URL.
          if (key === 'PhotoUrl' && typeof v === 'string' && !isWebLink(v))
            return 'profile field PhotoUrl must be an absolute http or https URL';
        }
      }
      return undefined;
  }
}

/** Per counter: its fields by name, and the required ones. */
const FIELD_INDEX = new Map<
  CounterSpec,
  { byName: Map<string, FieldSpec>; required: FieldSpec[] }
>();

function indexOf(counter: CounterSpec) {
  let index = FIELD_INDEX.get(counter);
  if (!index) {
    index = {
      byName: new Map(counter.fields.map((spec) => [spec.name, spec])),
      required: counter.fields.filter((spec) => spec.required),
    };
    FIELD_INDEX.set(counter, index);
  }
  return index;
}

/**
 * The record's non-null fields when every field is valid, else undefined. One pass over the
 * fields the client sent (usually a handful of the counter's 10-25).
 */
function validRecord(
  counter: CounterSpec,
  input: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const { byName, required } = indexOf(counter);
  const record: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key === 'Counter' || key === 'CreatedDate') continue;
    const spec = byName.get(key);
    if (!spec) return undefined;
    const value = input[key];
    if (value === null || value === undefined) continue;
    if (fieldProblem(spec, value)) return undefined;
    record[key] = value;
  }
  for (const spec of required) if (record[spec.name] === undefined) return undefined;
  return record;
}

/** Every problem of an invalid record, in the counter's field order, then its unknown fields. */
function reportProblems(
  counter: CounterSpec,
  input: Record<string, unknown>,
  fail: (field: string, message: string) => void,
): void {
  const { byName } = indexOf(counter);
  for (const spec of counter.fields) {
    const value = input[spec.name] === undefined ? null : input[spec.name];
    const problem = fieldProblem(spec, value);
    if (problem) fail(spec.name, problem);
  }
  for (const key of Object.keys(input))
    if (key !== 'Counter' && key !== 'CreatedDate' && !byName.has(key))
      fail(key, `is not a field of ${counter.name} records`);
}

function parseCreatedDate(
  value: unknown,
  now: number,
  seen: Map<string, Date | string>,
): Date | string {
  if (value === undefined || value === null) return new Date(now);
  // A batch's records often share their timestamp text.
  if (typeof value === 'string') {
    const known = seen.get(value);
    if (known !== undefined) return known;
    const parsed = parseDateText(value, now);
    if (seen.size < 1000) seen.set(value, parsed);
    return parsed;
  }
  return 'must be an ISO 8601 date-time with a zone (Z or an offset)';
}

function parseDateText(value: string, now: number): Date | string {
  if (!DATE_TIME.test(value)) return 'must be an ISO 8601 date-time with a zone (Z or an offset)';
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1900) return 'is not a valid date';
  if (date.getTime() > now + CLOCK_SKEW_MS) return 'may not be in the future';
  return date;
}

/**
 * Validates a whole batch; answers the records to store, or the field errors (each named
 * `[index].Field`). All or nothing: the caller stores none when there is any error.
 */
export function prepareBatch(
  body: readonly unknown[],
  now: number,
  stamp: DeviceStampValue | undefined,
): { records: PreparedRecord[]; errors: FieldError[] } {
  const records: PreparedRecord[] = [];
  const errors: FieldError[] = [];
  const fail = (index: number, field: string, message: string) => {
    if (errors.length < 100) errors.push({ Field: `[${index}].${field}`, Message: message });
  };
  const dates = new Map<string, Date | string>();
  for (let index = 0; index < body.length; index++) {
    const raw = body[index];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      fail(index, 'Counter', 'each record must be an object with a Counter');
      continue;
    }
    const input = raw as Record<string, unknown>;
    const name = input.Counter;
    const counter = typeof name === 'string' ? counterNamed(name) : undefined;
    if (!counter) {
      fail(index, 'Counter', 'must be the name of an analytics counter');
      continue;
    }
    if (!counter.ingested) {
      fail(
        index,
        'Counter',
        counter.name === 'OmniShare'
          ? 'OmniShare is read-only: send omni shares under their direction counter'
          : `${counter.name} records are computed by the server and cannot be sent`,
      );
      continue;
    }
    const createdAt = parseCreatedDate(input.CreatedDate, now, dates);
    const record = validRecord(counter, input);
    if (!record || typeof createdAt === 'string') {
      // Only a failing record pays for the full pass that names each of its problems.
      reportProblems(counter, input, (field, message) => fail(index, field, message));
      if (typeof createdAt === 'string') fail(index, 'CreatedDate', createdAt);
      continue;
    }
    if (stamp) {
      record.PhysicalDeviceId = stamp.PhysicalDeviceId;
      record.PhysicalDeviceDescription = stamp.PhysicalDeviceDescription;
      record[counter.store.id] = stamp.StoreId;
      record[counter.store.name] = stamp.StoreName;
    }
    const item = counter.itemField ? record[counter.itemField] : undefined;
    const store = record[counter.store.id];
    const device = record.PhysicalDeviceId;
    records.push({
      counter,
      createdAt,
      itemId: typeof item === 'number' ? item : null,
      storeId: typeof store === 'number' ? store : null,
      physicalDeviceId: typeof device === 'string' ? device : null,
      record,
    });
  }
  return { records, errors };
}

/** A stored record as the API answers it: every field of its counter (null when absent). */
export function recordView(
  counter: CounterSpec,
  record: Record<string, unknown>,
  createdAt: string,
  directionName?: string,
): Record<string, unknown> {
  const view: Record<string, unknown> = directionName ? { Counter: directionName } : {};
  for (const spec of counter.fields) view[spec.name] = record[spec.name] ?? null;
  view.CreatedDate = createdAt;
  return view;
}
