// Ingestion, log pages, summaries and settings of the analytics module; every query is scoped
// by tenant. Ingestion is one binary COPY per batch, on both engines (docs/design.md, "Analytics
// ingestion", has the measurements behind that choice).
import { BinaryCopyWriter } from '../../db/queries/binary-copy.ts';
import type { DatabaseHandle, RawSql } from '../../db/connection/database.ts';
import type { Principal } from '../../domain/principal.ts';
import {
  COUNTERS,
  counterOf,
  OMNI_SHARE,
  storedCodes,
  TRENDING_ITEM,
  type CounterSpec,
} from './analytics-counters.ts';
import { invalidQuery, invalidRecords, invalidTimeZone } from './analytics-errors.ts';
import { prepareBatch, recordView, type DeviceStampValue } from './analytics-records.ts';
import { ContinuationTokens, type PageKey } from './continuation-tokens.ts';

export type DeviceStamp = (
  tenantId: number,
  physicalDeviceId: string,
) => Promise<DeviceStampValue | undefined>;

/** Longest summary range: ten years of days. */
export const MAX_SUMMARY_DAYS = 3653;

export type Period = 'daily' | 'weekly' | 'monthly' | 'yearly';

export interface LogQuery {
  oaDate?: number;
  from?: string;
  to?: string;
  itemId?: number;
  storeId?: number;
  physicalDeviceId?: string;
  take: number;
  continuationKey?: string;
}

export interface SummaryRow {
  Year: number;
  Month?: number;
  WeekOfYear?: number;
  Day?: number;
  TotalCount: number;
}

/** One counter's counts per period (the summary of every counter). */
export interface CounterSummary {
  Counter: string;
  Periods: SummaryRow[];
}

const COPY_TARGET =
  'analytics_logs (tenant_id, counter, created_at, item_id, store_id, physical_device_id, record)';

// The local midnight that starts OLE Automation day $n in time zone $tz.
const dayStart = (n: string, tz: string) =>
  `((date '1899-12-30' + ${n}::int)::timestamp at time zone ${tz})`;

const KEY_TEXT = `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function isTimeZone(zone: string): boolean {
  if (zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  return Intl.supportedValuesOf('timeZone').includes(zone);
}

export class AnalyticsService {
  private readonly tokens: ContinuationTokens;
  private readonly database: DatabaseHandle;
  private readonly deviceStamp: DeviceStamp;

  constructor(database: DatabaseHandle, deviceStamp: DeviceStamp) {
    this.database = database;
    this.deviceStamp = deviceStamp;
    this.tokens = new ContinuationTokens(database);
  }

  /**
   * Deletes a deleted tenant's logs, in the deleting transaction (analytics_logs has no foreign
   * key to tenants: its check cost every ingested record a lookup; migration 0070).
   */
  async forgetTenant(sql: RawSql, tenantId: number): Promise<void> {
    await sql.query('delete from analytics_logs where tenant_id = $1', [tenantId]);
  }

  /**
   * Deletes the logs these physical devices recorded and the trending records of these items: the
   * sample's activity, when `omni sample remove` takes the sample's devices and items away.
   */
  async forgetDevicesAndItems(
    tenantId: number,
    physicalDeviceIds: readonly string[],
    itemIds: readonly number[],
  ): Promise<void> {
    await this.database.query(
      `delete from analytics_logs
        where tenant_id = $1
          and (physical_device_id = any($2::text[]) or (counter = $3 and item_id = any($4::bigint[])))`,
      [tenantId, physicalDeviceIds, TRENDING_ITEM, itemIds],
    );
  }

  /** Validates and stores a batch, all or nothing; answers how many records were stored. */
  async ingest(tenantId: number, body: readonly unknown[], principal?: Principal): Promise<number> {
    let stamp: DeviceStampValue | undefined;
    if (principal?.deviceId !== undefined) {
      stamp = (await this.deviceStamp(tenantId, principal.deviceId)) ?? {
        PhysicalDeviceId: principal.deviceId,
        PhysicalDeviceDescription: null,
        StoreId: null,
        StoreName: null,
      };
    }
    const { records, errors } = prepareBatch(body, Date.now(), stamp);
    if (errors.length > 0) throw invalidRecords(errors);
    if (records.length === 0) return 0;
    const rows = new BinaryCopyWriter(records.length * 256);
    for (const r of records)
      rows
        .row(7)
        .int4(tenantId)
        .int2(r.counter.code)
        .timestamptz(r.createdAt.getTime())
        .int8(r.itemId)
        .int8(r.storeId)
        .text(r.physicalDeviceId)
        .text(JSON.stringify(r.record));
    await this.database.copyFrom(COPY_TARGET, rows.finish());
    return records.length;
  }

  async timeZone(tenantId: number): Promise<string> {
    const rows = await this.database.prepared<{ time_zone: string }>(
      'analytics-time-zone',
      'select time_zone from analytics_settings where tenant_id = $1',
      [tenantId],
    );
    return rows[0]?.time_zone ?? 'UTC';
  }

  async settings(tenantId: number): Promise<{ TimeZone: string; version: number }> {
    const rows = await this.database.query<{ time_zone: string; version: number }>(
      'select time_zone, version from analytics_settings where tenant_id = $1',
      [tenantId],
    );
    return { TimeZone: rows[0]?.time_zone ?? 'UTC', version: rows[0]?.version ?? 0 };
  }

  async putSettings(
    tenantId: number,
    timeZone: string,
    check: (version: number) => void,
  ): Promise<{ TimeZone: string; version: number }> {
    if (!isTimeZone(timeZone)) throw invalidTimeZone(timeZone);
    return this.database.rawTransaction(async (sql) => {
      const current = await sql.query<{ version: number }>(
        'select version from analytics_settings where tenant_id = $1 for update',
        [tenantId],
      );
      check(current[0]?.version ?? 0);
      const [row] = await sql.query<{ version: number }>(
        `insert into analytics_settings (tenant_id, time_zone) values ($1, $2)
         on conflict (tenant_id) do update
           set time_zone = excluded.time_zone, version = analytics_settings.version + 1
         returning version`,
        [tenantId, timeZone],
      );
      return { TimeZone: timeZone, version: row!.version };
    });
  }

  /** One page of a counter's logs, oldest first, keyset-paged. */
  async logs(
    tenantId: number,
    counter: CounterSpec,
    query: LogQuery,
  ): Promise<{ ContinuationToken: string | null; Logs: Record<string, unknown>[] }> {
    const { lower, upper } = await this.range(tenantId, query);
    const filters = JSON.stringify([
      lower,
      upper,
      query.itemId ?? null,
      query.storeId ?? null,
      query.physicalDeviceId ?? null,
    ]);
    let after: PageKey | undefined;
    if (query.continuationKey !== undefined)
      after = await this.tokens.open(query.continuationKey, tenantId, counter.code, filters);
    const params: unknown[] = [tenantId, lower, upper];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    let where = `tenant_id = $1 and created_at >= $2::timestamptz and created_at < $3::timestamptz`;
    if (query.itemId !== undefined) where += ` and item_id = ${param(query.itemId)}`;
    if (query.storeId !== undefined) where += ` and store_id = ${param(query.storeId)}`;
    if (query.physicalDeviceId !== undefined)
      where += ` and physical_device_id = ${param(query.physicalDeviceId)}`;
    if (after)
      where += ` and (created_at, id) > (${param(after.time)}::timestamptz, ${param(after.id)}::int8)`;
    const limit = param(query.take + 1);
    const select = (code: number) =>
      `(select id::text as id, counter, ${KEY_TEXT} as key, record from analytics_logs
         where counter = ${code} and ${where} order by created_at, analytics_logs.id limit ${limit})`;
    const codes = storedCodes(counter);
    // One ordered index range per stored counter; OmniShare merges its four directions.
    const text =
      codes.length === 1
        ? select(codes[0]!)
        : `select * from (${codes.map(select).join(' union all ')}) merged
            order by key, id::int8 limit ${limit}`;
    const rows = await this.database.query<{
      id: string;
      counter: number;
      key: string;
      // The record's JSON text (a text column: migration 0150).
      record: string;
    }>(text, params);
    const more = rows.length > query.take;
    const page = more ? rows.slice(0, query.take) : rows;
    const last = page.at(-1);
    return {
      ContinuationToken:
        more && last
          ? await this.tokens.issue(tenantId, counter.code, filters, {
              time: last.key,
              id: last.id,
            })
          : null,
      Logs: page.map((row) =>
        recordView(
          counter,
          JSON.parse(row.record) as Record<string, unknown>,
          row.key.replace(/(\.\d{3})\d{3}Z$/, '$1Z'),
          counter.code === OMNI_SHARE ? counterOf(row.counter).name : undefined,
        ),
      ),
    };
  }

  /** The [lower, upper) instants (ISO text) of a log query: one OADate in the tenant's zone, or from/to. */
  private async range(
    tenantId: number,
    query: LogQuery,
  ): Promise<{ lower: string; upper: string }> {
    if (query.oaDate !== undefined) {
      if (query.from !== undefined || query.to !== undefined)
        throw invalidQuery('OADate', 'give either OADate or from/to, not both');
      const zone = await this.timeZone(tenantId);
      const [row] = await this.database.query<{ lower: string; upper: string }>(
        `select ${dayStart('$1', '$3')} as lower, ${dayStart('$2', '$3')} as upper`,
        [query.oaDate, query.oaDate + 1, zone],
      );
      return {
        lower: new Date(row!.lower).toISOString(),
        upper: new Date(row!.upper).toISOString(),
      };
    }
    if (query.from === undefined || query.to === undefined)
      throw invalidQuery('OADate', 'give OADate, or both from and to');
    const from = new Date(query.from);
    const to = new Date(query.to);
    if (Number.isNaN(from.getTime())) throw invalidQuery('from', 'must be an ISO 8601 date-time');
    if (Number.isNaN(to.getTime())) throw invalidQuery('to', 'must be an ISO 8601 date-time');
    if (to <= from) throw invalidQuery('to', 'must be after from');
    return { lower: from.toISOString(), upper: to.toISOString() };
  }

  /** Counts per period between two OLE Automation days (inclusive) in the tenant's time zone. */
  async summary(
    tenantId: number,
    counter: CounterSpec,
    period: Period,
    startOADate: number,
    endOADate: number,
  ): Promise<SummaryRow[]> {
    const rows = await this.periodCounts(
      tenantId,
      storedCodes(counter),
      period,
      startOADate,
      endOADate,
      false,
    );
    return rows.map((row) => row.period);
  }

  /**
   * The counts per period of every ingested counter with records between two OLE Automation days
   * (inclusive), in one query: `[{Counter, Periods}]` in the counters' order.
   */
  async summaries(
    tenantId: number,
    period: Period,
    startOADate: number,
    endOADate: number,
  ): Promise<CounterSummary[]> {
    const codes = COUNTERS.filter((c) => c.ingested).map((c) => c.code);
    const rows = await this.periodCounts(tenantId, codes, period, startOADate, endOADate, true);
    const byCode = new Map<number, SummaryRow[]>();
    for (const row of rows) {
      const periods = byCode.get(row.counter) ?? [];
      periods.push(row.period);
      byCode.set(row.counter, periods);
    }
    return codes
      .filter((code) => byCode.has(code))
      .map((code) => ({ Counter: counterOf(code).name, Periods: byCode.get(code)! }));
  }

  private async periodCounts(
    tenantId: number,
    codes: number[],
    period: Period,
    startOADate: number,
    endOADate: number,
    perCounter: boolean,
  ): Promise<{ counter: number; period: SummaryRow }[]> {
    if (endOADate < startOADate) throw invalidQuery('endOADate', 'must not be before startOADate');
    if (endOADate - startOADate + 1 > MAX_SUMMARY_DAYS)
      throw invalidQuery('endOADate', 'the range may span at most ten years (3653 days)');
    const zone = await this.timeZone(tenantId);
    const parts = {
      yearly: ['extract(year from local)'],
      monthly: ['extract(year from local)', 'extract(month from local)'],
      weekly: ['extract(isoyear from local)', 'extract(week from local)'],
      daily: ['extract(year from local)', 'extract(month from local)', 'extract(day from local)'],
    }[period];
    const names = {
      yearly: ['Year'],
      monthly: ['Year', 'Month'],
      weekly: ['Year', 'WeekOfYear'],
      daily: ['Year', 'Month', 'Day'],
    }[period];
    const columns = [
      ...(perCounter ? ['counter::int as counter'] : []),
      ...parts.map((p, i) => `${p}::int as "${names[i]}"`),
    ];
    const groups = columns.map((_, i) => String(i + 1)).join(', ');
    const rows = await this.database.query<Record<string, number | string>>(
      `select ${columns.join(', ')}, count(*)::int8 as "TotalCount"
         from (select counter, created_at at time zone $4 as local from analytics_logs
                where tenant_id = $1 and counter = any($2::int2[])
                  and created_at >= ${dayStart('$3', '$4')}
                  and created_at < ${dayStart('$5', '$4')}) logs
        group by ${groups} order by ${groups}`,
      [tenantId, codes, startOADate, zone, endOADate + 1],
    );
    return rows.map((row) => {
      const out: Record<string, number> = {};
      for (const name of names) out[name] = Number(row[name]);
      out.TotalCount = Number(row.TotalCount);
      return { counter: Number(row.counter ?? 0), period: out as unknown as SummaryRow };
    });
  }
}
