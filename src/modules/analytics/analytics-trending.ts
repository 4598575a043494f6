// Trending items (docs/api.md, "Trending"): for one day D of the tenant's time zone, every
// weighted item action of the seven days that end with D counts its counter's ImpactValue,
// decayed by half for each day of age (age measured from the end of D), grouped per store and
// item, and written as TrendingItem records dated the local midnight that starts D. A run for a
// day replaces that day's records in one transaction.
import type { DatabaseHandle } from '../../db/connection/database.ts';
import {
  counterNamed,
  DEFAULT_TRENDING_WEIGHTS,
  ITEM_ACTION_COUNTERS,
  TRENDING_ITEM,
} from './analytics-counters.ts';
import { invalidWeights } from './analytics-errors.ts';

export interface TrendingWeight {
  Counter: string;
  ImpactValue: number;
}

/** One item of a day's trending list, its stores added up. */
export interface TopTrendingItem {
  ItemId: number;
  ItemTitle: string | null;
  TotalTimeImpactValue: number;
  TotalActionTypeImpactValue: number;
  TotalActionCount: number;
}

/** The newest day with trending items (within the days looked at) and its top items. */
export interface TopTrending {
  Date: string | null;
  OADate: number | null;
  Items: TopTrendingItem[];
}

/** Days of actions that one day's trending looks back over (D and the six before it). */
export const TRENDING_WINDOW_DAYS = 7;
/** An action's weight halves with each day of age. */
export const TRENDING_HALF_LIFE_DAYS = 1;

const MAX_IMPACT = 1000;

export class TrendingService {
  private readonly database: DatabaseHandle;

  constructor(database: DatabaseHandle) {
    this.database = database;
  }

  async weights(tenantId: number): Promise<{ weights: TrendingWeight[]; version: number }> {
    const rows = await this.database.query<{ weights: TrendingWeight[]; version: number }>(
      'select weights, version from analytics_trending_weights where tenant_id = $1',
      [tenantId],
    );
    return rows[0] ?? { weights: DEFAULT_TRENDING_WEIGHTS, version: 0 };
  }

  async putWeights(
    tenantId: number,
    input: TrendingWeight[],
    check: (version: number) => void,
  ): Promise<{ weights: TrendingWeight[]; version: number }> {
    const seen = new Set<string>();
    const weights = input.map((entry, index) => {
      const counter = counterNamed(entry.Counter);
      if (!counter || !ITEM_ACTION_COUNTERS.includes(counter))
        throw invalidWeights(
          `[${index}].Counter`,
          `must be one of ${ITEM_ACTION_COUNTERS.map((c) => c.name).join(', ')}`,
        );
      if (seen.has(counter.name))
        throw invalidWeights(`[${index}].Counter`, `${counter.name} is listed twice`);
      seen.add(counter.name);
      if (!Number.isFinite(entry.ImpactValue) || Math.abs(entry.ImpactValue) > MAX_IMPACT)
        throw invalidWeights(
          `[${index}].ImpactValue`,
          `must be between -${MAX_IMPACT} and ${MAX_IMPACT}`,
        );
      return { Counter: counter.name, ImpactValue: entry.ImpactValue };
    });
    return this.database.rawTransaction(async (sql) => {
      const current = await sql.query<{ version: number }>(
        'select version from analytics_trending_weights where tenant_id = $1 for update',
        [tenantId],
      );
      check(current[0]?.version ?? 0);
      const [row] = await sql.query<{ version: number }>(
        `insert into analytics_trending_weights (tenant_id, weights) values ($1, $2::jsonb)
         on conflict (tenant_id) do update
           set weights = excluded.weights, version = analytics_trending_weights.version + 1
         returning version`,
        [tenantId, JSON.stringify(weights)],
      );
      return { weights, version: row!.version };
    });
  }

  /**
   * Computes day `date` (YYYY-MM-DD in the tenant's time zone) and replaces its TrendingItem
   * records; answers how many were written.
   */
  async run(tenantId: number, date: string): Promise<number> {
    const { weights } = await this.weights(tenantId);
    const codes: number[] = [];
    const impacts: number[] = [];
    for (const w of weights) {
      const counter = counterNamed(w.Counter);
      if (counter && w.ImpactValue !== 0) {
        codes.push(counter.code);
        impacts.push(w.ImpactValue);
      }
    }
    return this.database.rawTransaction(async (sql) => {
      await sql.query('select pg_advisory_xact_lock($1, hashtext($2))', [tenantId, date]);
      const [bounds] = await sql.query<{ day_start: Date; day_end: Date; zone: string }>(
        `select ($2::date::timestamp at time zone zone) as day_start,
                (($2::date + 1)::timestamp at time zone zone) as day_end, zone
           from (select coalesce((select time_zone from analytics_settings where tenant_id = $1),
                                 'UTC') as zone) z`,
        [tenantId, date],
      );
      const { day_start: dayStart, day_end: dayEnd, zone } = bounds!;
      await sql.query(
        `delete from analytics_logs where tenant_id = $1 and counter = ${TRENDING_ITEM}
            and created_at >= $2 and created_at < $3`,
        [tenantId, dayStart, dayEnd],
      );
      if (codes.length === 0) return 0;
      const latest = (field: string) =>
        `(array_agg(record->'${field}' order by created_at desc, id desc)
            filter (where record->>'${field}' is not null))[1]`;
      const rows = await sql.query<{ n: number }>(
        `with weights as (select * from unnest($2::int2[], $3::float8[]) as w(counter, impact)),
         actions as (
           select l.store_id, l.item_id, l.created_at, l.id, l.record::jsonb as record, w.impact,
                  w.impact * power(0.5, extract(epoch from ($5::timestamptz - l.created_at))
                                        / 86400.0 / ${TRENDING_HALF_LIFE_DAYS}) as decayed
             from analytics_logs l join weights w on w.counter = l.counter
            where l.tenant_id = $1 and l.item_id is not null
              and l.created_at >= (($6::date - ${TRENDING_WINDOW_DAYS - 1})::timestamp at time zone $7)
              and l.created_at < $5),
         grouped as (
           select store_id, item_id,
                  sum(impact) as action_impact, sum(decayed) as time_impact, count(*) as actions,
                  ${latest('ItemTitle')} as item_title, ${latest('BrandId')} as brand_id,
                  ${latest('CategoryId')} as category_id, ${latest('ItemName')} as item_name,
                  ${latest('DefaultItemId')} as default_item_id, ${latest('Model')} as model
             from actions group by store_id, item_id),
         inserted as (
           insert into analytics_logs (tenant_id, counter, created_at, item_id, store_id, record)
           select $1, ${TRENDING_ITEM}, $4, item_id, store_id,
                  jsonb_strip_nulls(jsonb_build_object(
                    'StoreId', store_id, 'ItemId', item_id, 'ItemTitle', item_title,
                    'BrandId', brand_id, 'CategoryId', category_id, 'ItemName', item_name,
                    'DefaultItemId', default_item_id, 'Model', model,
                    'TotalActionTypeImpactValue', round(action_impact::numeric, 6),
                    'TotalTimeImpactValue', round(time_impact::numeric, 6),
                    'TotalActionCount', actions))::text
             from grouped order by time_impact desc, item_id, store_id
           returning 1)
         select count(*)::int as n from inserted`,
        [tenantId, codes, impacts, dayStart, dayEnd, date, zone],
      );
      return Number(rows[0]!.n);
    });
  }

  /**
   * The top `take` items of the newest day that has TrendingItem records, among the `days` days
   * that end with `oaDate` (today in the tenant's time zone when absent); each item's stores
   * added up, highest TotalTimeImpactValue first (ties by item id).
   */
  async top(
    tenantId: number,
    query: { oaDate?: number; days: number; take: number },
  ): Promise<TopTrending> {
    // The newest record's instant in the range (one backward index step), then that day's records.
    const rows = await this.database.query<{
      day: string;
      item_id: number;
      item_title: string | null;
      time_impact: number | string;
      action_impact: number | string;
      actions: number | string;
    }>(
      `with zone as (select coalesce((select time_zone from analytics_settings where tenant_id = $1),
                                     'UTC') as name),
            last_day as (select coalesce(date '1899-12-30' + $2::int,
                                         (now() at time zone (select name from zone))::date) as d),
            newest as (
              select max(created_at) as at from analytics_logs
               where tenant_id = $1 and counter = ${TRENDING_ITEM}
                 and created_at >= (((select d from last_day) - ($3::int - 1))::timestamp
                                     at time zone (select name from zone))
                 and created_at < (((select d from last_day) + 1)::timestamp
                                     at time zone (select name from zone)))
       select to_char((newest.at at time zone (select name from zone))::date, 'YYYY-MM-DD') as day,
              l.item_id,
              (array_agg(l.record::jsonb->>'ItemTitle' order by l.store_id nulls first)
                 filter (where l.record::jsonb->>'ItemTitle' is not null))[1] as item_title,
              sum((l.record::jsonb->>'TotalTimeImpactValue')::float8) as time_impact,
              sum((l.record::jsonb->>'TotalActionTypeImpactValue')::float8) as action_impact,
              sum((l.record::jsonb->>'TotalActionCount')::int8) as actions
         from newest join analytics_logs l
           on l.tenant_id = $1 and l.counter = ${TRENDING_ITEM} and l.created_at = newest.at
        where l.item_id is not null
        group by newest.at, l.item_id
        order by time_impact desc, l.item_id
        limit $4`,
      [tenantId, query.oaDate ?? null, query.days, query.take],
    );
    const day = rows[0]?.day;
    if (day === undefined) return { Date: null, OADate: null, Items: [] };
    const round = (value: number | string) => Math.round(Number(value) * 1e6) / 1e6;
    return {
      Date: day,
      OADate: Date.parse(`${day}T00:00:00Z`) / 86_400_000 + 25_569,
      Items: rows.map((row) => ({
        ItemId: Number(row.item_id),
        ItemTitle: row.item_title,
        TotalTimeImpactValue: round(row.time_impact),
        TotalActionTypeImpactValue: round(row.action_impact),
        TotalActionCount: Number(row.actions),
      })),
    };
  }

  /** Runs `date` for every tenant; answers the records written per tenant id. */
  async runAll(date?: string): Promise<Map<number, number>> {
    const tenants = await this.database.query<{ id: number; yesterday: string }>(
      `select t.id, to_char((now() at time zone coalesce(s.time_zone, 'UTC'))::date - 1,
                            'YYYY-MM-DD') as yesterday
         from tenants t left join analytics_settings s on s.tenant_id = t.id order by t.id`,
    );
    const written = new Map<number, number>();
    for (const tenant of tenants)
      written.set(tenant.id, await this.run(tenant.id, date ?? tenant.yesterday));
    return written;
  }
}
