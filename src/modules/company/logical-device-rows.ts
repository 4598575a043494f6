// A logical device as its table holds it and as the API shows it: the columns read, its JSON
// built in SQL for the device-facing lists, the row's mapping, and the checks of what a write
// may store (logical-device-service.ts runs the statements).
import { expirationInPast, repeatedMetadataKey } from './company-errors.ts';
import type { LogicalDevice, MetadataPair } from './company-schemas.ts';
import type { Versioned } from './store-service.ts';

export const SELECT = `select l.id as "DeviceId", l.description as "Description",
    l.device_type_id as "DeviceTypeId", t.description as "DeviceTypeDescription",
    l.expiration_date as "ExpirationDate", l.metadata as "Metadata", l.updated_at as version
  from logical_devices l
  left join device_types t on t.tenant_id = l.tenant_id and t.id = l.device_type_id`;
/** JSON text of a value, `null` for SQL NULL. */
const json = (value: string) => `coalesce(to_json(${value})::text, 'null')`;
/**
 * A LogicalDevice as compact JSON text (no spaces between tokens: json_build_object's " : " and
 * ", " were a tenth of the answer), ExpirationDate as toISOString writes it, Metadata when $8.
 */
export const DEVICE_JSON = `'{"DeviceId":' || ${json('l.id')} ||
  ',"Description":' || ${json('l.description')} ||
  ',"DeviceTypeId":' || ${json('l.device_type_id')} ||
  ',"DeviceTypeDescription":' || ${json('t.description')} ||
  ',"ExpirationDate":' || ${json(`to_char(l.expiration_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)} ||
  case when $8::bool then ',"Metadata":' || l.metadata::text else '' end || '}'`;
export const NOT_EXPIRED = '(l.expiration_date is null or l.expiration_date > now())';
/** The list filters, their parameters numbered from `n`: type, metadata key, metadata value. */
export const filters = (n: number) => `($${n}::bigint is null or l.device_type_id = $${n})
  and ($${n + 1}::text is null
       or l.metadata @> jsonb_build_array(jsonb_build_object('Key', $${n + 1}::text, 'Value', $${n + 2}::text)))`;

export interface LogicalDeviceRow {
  DeviceId: string;
  Description: string;
  DeviceTypeId: number | null;
  DeviceTypeDescription: string | null;
  ExpirationDate: Date | string | null;
  Metadata: MetadataPair[] | string;
  version: Date;
}

const iso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
export const metadataOf = (value: MetadataPair[] | string): MetadataPair[] =>
  typeof value === 'string' ? (JSON.parse(value) as MetadataPair[]) : value;

export function toDevice(row: LogicalDeviceRow, includeMetadata = true): LogicalDevice {
  return {
    DeviceId: row.DeviceId,
    Description: row.Description,
    DeviceTypeId: row.DeviceTypeId,
    DeviceTypeDescription: row.DeviceTypeDescription,
    ExpirationDate: iso(row.ExpirationDate),
    ...(includeMetadata ? { Metadata: metadataOf(row.Metadata) } : {}),
  };
}
export const versioned = (row: LogicalDeviceRow): Versioned<LogicalDevice> => ({
  value: toDevice(row),
  version: row.version,
});

export function checkMetadata(metadata: MetadataPair[] | undefined): void {
  const seen = new Set<string>();
  for (const { Key } of metadata ?? []) {
    if (seen.has(Key)) throw repeatedMetadataKey(Key);
    seen.add(Key);
  }
}

/**
 * An ExpirationDate must be in the future, unless it is the one the device already has: an
 * expired device fetched and sent back unchanged keeps its date.
 */
export function checkExpiration(
  date: string | null | undefined,
  current: Date | null = null,
): Date | null {
  if (date === undefined || date === null) return null;
  const parsed = new Date(date);
  if (!(parsed.getTime() > Date.now()) && parsed.getTime() !== current?.getTime())
    throw expirationInPast();
  return parsed;
}
