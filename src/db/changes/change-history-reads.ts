// Reading the change history (its table: src/db/migrations/0320_change_history.sql): pages of
// entries, newest first, of one resource or of the tenant under filters, and one version of a
// resource. Each entry comes with the data of the resource's previous version, so that the caller
// can tell what changed without a second round trip: on one resource's page the next entry of the
// page itself, otherwise found by a lateral lookup of the resource's entry just before.
//
// Pages are keyset pages on (changed_at, id) descending: the primary key (tenant_id, changed_at,
// id) of every monthly partition walks them backwards, so a deep page costs what the first does.
// Every statement names the tenant, so on Citus each is routed to the tenant's shard.
import { createHash } from 'node:crypto';
import type { RawSql } from '../connection/database.ts';

/**
 * A statement of these reads prepared under a name of its text: each shape of the filters is one
 * text, planned once per connection (planning the partitions' scans cost about as much as
 * running a page).
 */
function preparedRead<Row>(sql: RawSql, text: string, params: unknown[]): Promise<Row[]> {
  const name = `change_history_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  return sql.prepared<Row>(name, text, params);
}

/**
 * A page's LIMIT, written into the statement's text rather than passed as a parameter: with a
 * parameter the plan kept for the statement cannot count on a few rows and costs a whole scan of
 * the resource's entries, so PostgreSQL planned the statement anew at every run (0.4-0.6 ms, five
 * times the run itself). A page size is one of a few values, so each is one prepared statement.
 */
function limitOf(take: number): number {
  if (!Number.isSafeInteger(take) || take < 1) throw new RangeError(`bad page size ${take}`);
  return take;
}

/** An entry as stored, with its previous version's data. */
export interface ChangeRow {
  /** The entry's id, as decimal text (an int8 that Citus may make larger than 2^53). */
  id: string;
  /** changed_at with microseconds, UTC (`2026-01-02T03:04:05.123456Z`): the page key's time. */
  changed_key: string;
  resource: string;
  resource_id: string;
  action: string;
  version: number;
  actor: string;
  context: string;
  data: string | null;
  /** The previous version's data; null for a first version or once that version was pruned. */
  previous_data: string | null;
  /** Whether the previous version's entry was found (a pruned one is not). */
  has_previous: boolean;
  seq: string | null;
  hash: string | null;
}

/** Where a page starts: after the entry with this time and id (the last of the page before). */
export interface ChangePageKey {
  time: string;
  id: string;
}

/** What a tenant-wide page is limited to; every field narrows it. */
export interface ChangeFilter {
  resource?: string;
  resourceId?: string;
  /** `app`, `member`, … (the actor's type, in lower case). */
  actorType?: string;
  actorId?: string;
  action?: string;
  /** changed_at at or after this (ISO date-time). */
  from?: string;
  /** changed_at before this (ISO date-time). */
  before?: string;
}

const COLUMNS_ALONE = `
  h.id::text as id,
  to_char(h.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as changed_key,
  h.resource, h.resource_id, h.action, h.version, h.actor, h.context, h.data,
  h.seq::text as seq, h.hash`;
const COLUMNS = `${COLUMNS_ALONE},
  p.data as previous_data, p.found is not null as has_previous`;

// The previous version of the entry's resource: its entry just before, in the order of the
// resource's pages (one probe of change_history_resource_pages a partition; by the version
// number the planner took that index all the same and walked the resource's entries for each
// one). A creation has none, even where a resource was made again under the same id. The tenant
// is the statement's $1, named here too: on Citus a lateral join runs only inside a query routed
// to one shard, which it is when every reference to the table names the tenant.
const PREVIOUS = `
  left join lateral (
    select p.data, true as found from change_history p
     where p.tenant_id = $1 and p.resource = h.resource and p.resource_id = h.resource_id
       and (p.changed_at, p.id) < (h.changed_at, h.id)
       and h.action <> 'created'
     order by p.changed_at desc, p.id desc
     limit 1
  ) p on true`;

/**
 * One page of a tenant's entries, newest first: `take` of them after `after` (or from the
 * newest). `filter` narrows them: by resource (and id), actor, action and time.
 */
export async function changePage(
  sql: RawSql,
  tenantId: number,
  filter: ChangeFilter,
  take: number,
  after?: ChangePageKey,
): Promise<ChangeRow[]> {
  const params: unknown[] = [tenantId];
  const where = ['h.tenant_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.resource !== undefined) add((n) => `h.resource = ${n}`, filter.resource);
  if (filter.resourceId !== undefined) add((n) => `h.resource_id = ${n}`, filter.resourceId);
  if (filter.actorType !== undefined && filter.actorId !== undefined)
    add((n) => `h.actor_key = ${n}`, `${filter.actorType}:${filter.actorId}`);
  else if (filter.actorType !== undefined)
    // The key's prefix: an index range on change_history_actor.
    add((n) => `h.actor_key like ${n}`, `${filter.actorType}:%`);
  else if (filter.actorId !== undefined)
    add((n) => `h.actor_key like ${n}`, `%:${filter.actorId.replace(/[\\%_]/g, '\\$&')}`);
  if (filter.action !== undefined) add((n) => `h.action = ${n}`, filter.action);
  if (filter.from !== undefined) add((n) => `h.changed_at >= ${n}::timestamptz`, filter.from);
  if (filter.before !== undefined) add((n) => `h.changed_at < ${n}::timestamptz`, filter.before);
  if (after) {
    params.push(after.time, after.id);
    where.push(
      `(h.changed_at, h.id) < ($${params.length - 1}::timestamptz, $${params.length}::bigint)`,
    );
  }
  const { resource, resourceId, ...narrowing } = filter;
  const oneResource =
    resource !== undefined &&
    resourceId !== undefined &&
    Object.values(narrowing).every((value) => value === undefined);
  if (oneResource) {
    // One resource's entries, unfiltered otherwise: each entry's previous version is the next
    // entry of the page itself, so one more entry is read instead of a lookup for each (half the
    // documents sent and parsed).
    const rows = await preparedRead<ChangeRow>(
      sql,
      `select ${COLUMNS_ALONE} from change_history h
        where ${where.join(' and ')}
        order by h.changed_at desc, h.id desc
        limit ${limitOf(take + 1)}`,
      params,
    );
    return rows.slice(0, take).map((row, n) => {
      const previous = row.action === 'created' ? undefined : rows[n + 1];
      return {
        ...row,
        previous_data: previous?.data ?? null,
        has_previous: previous !== undefined,
      };
    });
  }
  return preparedRead<ChangeRow>(
    sql,
    `select ${COLUMNS}
       from (select * from change_history h
              where ${where.join(' and ')}
              order by h.changed_at desc, h.id desc
              limit ${limitOf(take)}) h
       ${PREVIOUS}
      order by h.changed_at desc, h.id desc`,
    params,
  );
}

/**
 * One version of a resource (of any resource of the kind when `resourceId` is undefined: a
 * singleton's), the newest entry of that version when a re-created resource repeats it.
 */
export async function changeVersion(
  sql: RawSql,
  tenantId: number,
  resource: string,
  resourceId: string | undefined,
  version: number,
): Promise<ChangeRow | undefined> {
  const params: unknown[] = [tenantId, resource, version];
  if (resourceId !== undefined) params.push(resourceId);
  const rows = await preparedRead<ChangeRow>(
    sql,
    `select ${COLUMNS}
       from (select * from change_history h
              where h.tenant_id = $1 and h.resource = $2 and h.version = $3
                ${resourceId !== undefined ? 'and h.resource_id = $4' : ''}
              order by h.changed_at desc, h.id desc
              limit 1) h
       ${PREVIOUS}`,
    params,
  );
  return rows[0];
}

/** Whether the tenant has any entry of the resource (of the kind, without an id). */
export async function hasChanges(
  sql: RawSql,
  tenantId: number,
  resource: string,
  resourceId: string | undefined,
): Promise<boolean> {
  const params: unknown[] = [tenantId, resource];
  if (resourceId !== undefined) params.push(resourceId);
  const rows = await preparedRead(
    sql,
    `select 1 from change_history
      where tenant_id = $1 and resource = $2 ${resourceId !== undefined ? 'and resource_id = $3' : ''}
      limit 1`,
    params,
  );
  return rows.length > 0;
}
