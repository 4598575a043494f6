// Names that identify a catalog resource where no unique index can say so: a price type's symbol
// within its tenant, a category's name among its siblings (both compared case-insensitively, with
// the database's lower()). Databases from before the rule may hold duplicates, which a unique
// index could not be built over; so every writer of such a name (the services' create and
// update, and the import when it creates what is missing) takes a transaction-scoped advisory
// lock of the tenant and the kind first, then looks for a clash and writes. The lock makes the
// writers of one tenant take turns; each check runs after the previous writer committed, and at
// READ COMMITTED its statement sees that commit, so two concurrent requests cannot both pass.
// On the embedded database transactions run one at a time anyway. Readers are not held up.
import type { RawSql } from '../../db/connection/database.ts';

/**
 * The tenant's category structure: names among siblings and the tree's shape (a move that would
 * close a cycle), taken by category create, update and the import's category creation.
 */
export const CATEGORY_LOCK = 'select pg_advisory_xact_lock(7331, $1)';
/** The tenant's price type symbols. */
export const PRICE_TYPE_LOCK = 'select pg_advisory_xact_lock(7332, $1)';

/** Whether a price type other than `exceptId` has the symbol (case-insensitively). */
export async function priceTypeSymbolTaken(
  sql: RawSql,
  tenantId: number,
  symbol: string,
  exceptId = 0,
): Promise<boolean> {
  const [row] = await sql.query<{ taken: boolean }>(
    `select exists (select 1 from price_types
                     where tenant_id = $1 and lower(symbol) = lower($2) and id <> $3) as taken`,
    [tenantId, symbol, exceptId],
  );
  return row!.taken;
}

/** Whether a category other than `exceptId` has the name under the parent (null: the roots). */
export async function categoryNameTaken(
  sql: RawSql,
  tenantId: number,
  parentId: number | null,
  name: string,
  exceptId = 0,
): Promise<boolean> {
  // Two texts: "parent_id is not distinct from $2" would be no index condition.
  const [row] =
    parentId === null
      ? await sql.query<{ taken: boolean }>(
          `select exists (select 1 from categories
                           where tenant_id = $1 and lower(name) = lower($2) and parent_id is null
                             and id <> $3) as taken`,
          [tenantId, name, exceptId],
        )
      : await sql.query<{ taken: boolean }>(
          `select exists (select 1 from categories
                           where tenant_id = $1 and lower(name) = lower($2) and parent_id = $4
                             and id <> $3) as taken`,
          [tenantId, name, exceptId, parentId],
        );
  return row!.taken;
}

/** Whether two names are one as the rules compare them (the database's lower(), not JS's). */
export async function sameName(sql: RawSql, a: string, b: string): Promise<boolean> {
  const [row] = await sql.query<{ same: boolean }>('select lower($1) = lower($2) as same', [a, b]);
  return row!.same;
}
