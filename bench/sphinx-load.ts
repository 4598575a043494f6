// Loads a tenant's catalog from PostgreSQL into the peer's RT index (bench/sphinx-server.ts):
// each item's text fields, and what our search rows filter, order and count by (category, brand,
// status, tags, attribute values, the price the customer pays per price type, the Title key).
import type { Connection } from 'mysql2/promise';
import pg from 'pg';
import { SPHINX_FIELDS, SPHINX_INDEX } from './sphinx-server.ts';

/** What the peer's statements need to know about the tenant. */
export interface PeerCatalog {
  tenantId: number;
  /** The tenant's price types, in id order: the first is the index's price_1, the next price_2. */
  priceTypeIds: number[];
  items: number;
  /**
   * The catalog's words (its word list, as our search keeps it): the peer's client finds a query
   * word's typo alternatives among them, in memory. Sphinx 2.2 has no typo lookup of its own, and
   * asking its dictionary (CALL KEYWORDS) for a word's ~400 one-edit variants took 12 ms a query.
   */
  words: Set<string>;
}

const BATCH = 2000;

export async function describeTenant(
  databaseUrl: string,
  tenantName: string,
): Promise<PeerCatalog> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number; types: number[]; items: number }>(
      `select t.id,
              array(select id from price_types where tenant_id = t.id order by id) as types,
              (select count(*)::int from item_search_rows where tenant_id = t.id) as items
         from tenants t where t.name = $1`,
      [tenantName],
    );
    const row = rows[0];
    if (!row) throw new Error(`tenant ${tenantName} not found`);
    if (row.types.length > 2)
      throw new Error('the peer index holds two price types (the search seed makes two)');
    const words = await client.query<{ word: string }>(
      'select word from item_search_words where tenant_id = $1',
      [row.id],
    );
    return {
      tenantId: row.id,
      priceTypeIds: row.types,
      items: row.items,
      words: new Set(words.rows.map((w) => w.word)),
    };
  } finally {
    await client.end();
  }
}

/** How many documents the index holds. */
export async function indexedCount(sphinx: Connection): Promise<number> {
  await sphinx.query(`select id from ${SPHINX_INDEX} limit 1`);
  const [meta] = await sphinx.query(`show meta like 'total_found'`);
  return Number((meta as { Value: string }[])[0]?.Value ?? 0);
}

const literal = (value: string | null) =>
  value === null
    ? "''"
    : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, ' ')}'`;
const list = (ids: number[] | null) => `(${(ids ?? []).join(',')})`;

/** Replaces the index's documents with the tenant's items; answers how many were written. */
export async function loadCatalog(
  databaseUrl: string,
  catalog: PeerCatalog,
  sphinx: Connection,
  progress: (written: number) => void,
): Promise<number> {
  await sphinx.query(`truncate rtindex ${SPHINX_INDEX}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let written = 0;
  try {
    let after = 0;
    // The next batch is read while the last one is written.
    const read = (from: number) =>
      client.query<Record<string, unknown>>(
        `select i.id, i.title, i.name, i.sku, i.model, i.short_description, i.long_description,
                s.category_id, s.brand_id, s.item_status_id, s.facet_tag_ids, s.facet_value_ids,
                s.facet_price_type_ids, s.facet_prices, s.title_key, s.rating,
                extract(epoch from s.date_added)::bigint as date_added
           from item_search_rows s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          where s.tenant_id = $1 and s.item_id > $2
          order by s.item_id limit ${BATCH}`,
        [catalog.tenantId, from],
      );
    let next = read(after);
    for (;;) {
      const { rows } = await next;
      if (rows.length === 0) break;
      after = rows.at(-1)!.id as number;
      next = read(after);
      const values = rows.map((r) => {
        const types = (r.facet_price_type_ids as number[] | null) ?? [];
        const prices = (r.facet_prices as number[] | null) ?? [];
        const price = (k: number) => {
          const at = types.indexOf(catalog.priceTypeIds[k]!);
          return at < 0 ? -1 : Number(prices[at]);
        };
        return `(${[
          r.id,
          ...SPHINX_FIELDS.map((f) => literal(r[f] as string | null)),
          r.category_id ?? 0,
          r.brand_id ?? 0,
          r.item_status_id,
          list(r.facet_tag_ids as number[] | null),
          list(r.facet_value_ids as number[] | null),
          price(0),
          price(1),
          r.rating ?? 0,
          r.date_added ?? 0,
          literal(r.title_key as string | null),
        ].join(',')})`;
      });
      await sphinx.query(
        `insert into ${SPHINX_INDEX} (id, ${SPHINX_FIELDS.join(', ')}, category_id, brand_id, item_status_id,
           tag_ids, value_ids, price_1, price_2, rating, date_added, title_key) values ${values.join(',')}`,
      );
      written += rows.length;
      progress(written);
    }
  } finally {
    await client.end();
  }
  await sphinx.query(`flush rtindex ${SPHINX_INDEX}`);
  return written;
}
