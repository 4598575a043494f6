// Validation of ingested records (per counter, the fields of analytics-counters.ts) and the
// identity-token stamp.
import type { FieldError } from '../../http/errors.ts';
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

function fieldProblem(spec: FieldSpec, value: unknown): string | undefined {
  if (value === null) return spec.required ? 'is required' : undefined;
  switch (spec.type) {
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
      return value.length <= max ? undefined : `must be at most ${max} characters`;
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
        }
      }
      return undefined;
  }
}

function parseCreatedDate(value: unknown, now: number): Date | string {
  if (value === undefined || value === null) return new Date(now);
  if (typeof value !== 'string' || !DATE_TIME.test(value))
    return 'must be an ISO 8601 date-time with a zone (Z or an offset)';
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
    const record: Record<string, unknown> = {};
    let ok = true;
    const known = new Set(['Counter', 'CreatedDate']);
    for (const spec of counter.fields) {
      known.add(spec.name);
      const value = input[spec.name] === undefined ? null : input[spec.name];
      const problem = fieldProblem(spec, value);
      if (problem) {
        fail(index, spec.name, problem);
        ok = false;
      } else if (value !== null) record[spec.name] = value;
    }
    for (const key of Object.keys(input)) {
      if (!known.has(key)) {
        fail(index, key, `is not a field of ${counter.name} records`);
        ok = false;
      }
    }
    const createdAt = parseCreatedDate(input.CreatedDate, now);
    if (typeof createdAt === 'string') {
      fail(index, 'CreatedDate', createdAt);
      ok = false;
    }
    if (!ok || typeof createdAt === 'string') continue;
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
