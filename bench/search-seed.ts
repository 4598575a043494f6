// Seeds a tenant's catalog for the search scenarios: 100k items (BENCH_SEARCH_ITEMS=1000000 for
// 1M) with text from a vocabulary of 3,000 made-up words drawn with a skewed frequency (a few
// words in most items, most words rare), 20 categories in 3 levels, 200 brands, 30 tags, two
// price types and 5 attribute types. Two planted words give the scenarios known selectivities:
// "lantern" in 1% of the items (a description word) and "classic" in 30% (a title word).
// Set-based: each batch of 10k items is a few INSERT … SELECT statements, and each item row is
// written once, its document and facet arrays built by the items trigger exactly as for an API
// write (checked: a seeded item and the same input POSTed through the API read back equal).
// BENCH_SEARCH_SEED_WORKERS (default 2) batches run at once, each on its own connection.
// Usage: node bench/search-seed.ts <tenant>   (same DATA_DIR / DATABASE_URL as the server)
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { takeItemIds } from './item-ids.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/search-seed.ts <tenant>');
const ITEMS = Number(process.env.BENCH_SEARCH_ITEMS ?? 100_000);
const BATCH = 10_000;
/** Batches written at once (each by its own connection). */
const WORKERS = Math.max(1, Number(process.env.BENCH_SEARCH_SEED_WORKERS ?? 2));

/** 3,000 distinct pronounceable words (a fixed pseudo-random sequence), none of the planted ones. */
function vocabulary(): string[] {
  let state = 42; // mulberry32: a fixed, well-spread sequence
  const next = (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
  const onsets = [
    'b',
    'c',
    'd',
    'f',
    'g',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'br',
    'st',
    'tr',
  ];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', 'n', 'r', 's', 'l', 'nd', 'st', 'x'];
  const words = new Set<string>();
  while (words.size < 3000) {
    let word = '';
    for (let s = 0, n = 1 + next(3); s < n; s++)
      word += onsets[next(onsets.length)]! + vowels[next(vowels.length)]!;
    word += codas[next(codas.length)]!;
    if (word.length >= 3 && !['lantern', 'lanturn', 'classic'].includes(word)) words.add(word);
  }
  return [...words];
}

const database = await openDatabase(loadConfig());
const started = Date.now();
let t = 0;
try {
  const [tenant] = await database.query<{ id: number }>('select id from tenants where name = $1', [
    tenantName,
  ]);
  if (!tenant) throw new Error(`tenant ${tenantName} not found`);
  t = tenant.id;
  const words = vocabulary();
  await database.rawTransaction(async (sql) => {
    await sql.query(
      `insert into price_types (tenant_id, description, symbol) values ($1, 'USD', '$'), ($1, 'EUR', '€')`,
      [t],
    );
    await sql.query(
      `insert into brands (tenant_id, name) select $1, initcap(w) || ' ' || g from unnest($2::text[]) with ordinality u (w, g) where g <= 200`,
      [t, words],
    );
    // 4 departments, 8 categories under them, 8 subcategories under those: 20 in 3 levels.
    await sql.query(
      `insert into categories (tenant_id, name) select $1, 'Department ' || g from generate_series(1, 4) g`,
      [t],
    );
    for (const level of [2, 3])
      await sql.query(
        `insert into categories (tenant_id, name, parent_id)
         select $1, 'Level ${level} ' || c.id || '.' || g, c.id from categories c, generate_series(1, 2) g
          where c.tenant_id = $1 and c.name like $2 ${level === 3 ? 'and c.id % 2 = 0' : ''}`,
        [t, level === 2 ? 'Department %' : 'Level 2 %'],
      );
    await sql.query(
      `insert into categories (tenant_id, name, parent_id)
       select $1, 'Level 3 extra ' || c.id, c.id from categories c
        where c.tenant_id = $1 and c.name like 'Level 2 %' and c.id % 2 = 1`,
      [t],
    );
    await sql.query(
      `insert into tags (tenant_id, name) select $1, 'Tag ' || g from generate_series(1, 30) g`,
      [t],
    );
    await sql.query(
      `insert into dynamic_attribute_types (tenant_id, description)
       values ($1, 'Color'), ($1, 'Size'), ($1, 'Material'), ($1, 'Style'), ($1, 'Origin')`,
      [t],
    );
    await sql.query(
      `insert into dynamic_attribute_values (tenant_id, type_id, value)
       select $1, d.id, initcap(w) from dynamic_attribute_types d,
              lateral (select w from unnest($2::text[]) with ordinality u (w, n)
                        where n between 1000 + d.id * 20 and 1000 + d.id * 20 + 5 + d.id % 5 * 3) v
        where d.tenant_id = $1`,
      [t, words],
    );
  });
  // Items in batches (one transaction each, like a bulk import). A word of rank r (0-based) is
  // drawn as floor(3000 × u^2.2) for a uniform u: the first words are in most items, most
  // words in few.
  let seed = 7;
  const uniform = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = () => words[Math.floor(3000 * uniform() ** 2.2)]!;
  const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
  const capitalised = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());
  const insertBatch = (first: number, last: number, columns: string[][]) =>
    database.rawTransaction(async (sql) => {
      const ids = await takeItemIds(sql, last - first + 1);
      // Each item is written once, its document built by the items trigger from rows already
      // there: its prices, attributes and tags go in first. Their own triggers (which rebuild
      // the documents of their items, none of which exists yet) and the reference checks (the
      // items come next in this transaction) are skipped for these three statements only;
      // otherwise each child statement rewrote every item of the batch (3 rewrites per item).
      // On Citus the statements run on the workers: the setting goes with them there.
      await sql.exec(`set local citus.propagate_set_commands = 'local'`);
      await sql.exec(`set local session_replication_role = replica`);
      const batch = 'unnest($2::int[]) as i (id)';
      await sql.query(
        // Every fifth item at a 20 % discount (a discount is never above the normal price).
        `insert into item_prices (tenant_id, item_id, price_type_id, normal_price, discount_price)
         select $1, i.id, p.id, n.price, case when i.id % 5 = 0 then round(n.price * 0.8, 2) end
           from ${batch} cross join price_types p, lateral (select 5 + (i.id * 37 + p.id) % 500 as price) n
          where p.tenant_id = $1`,
        [t, ids],
      );
      await sql.query(
        `insert into item_attributes (tenant_id, item_id, type_id, value_id)
         select $1, i.id, d.id, v.ids[1 + (i.id * (d.id + 3)) % cardinality(v.ids)]
           from ${batch} cross join dynamic_attribute_types d
           cross join lateral (select array_agg(id order by id) ids from dynamic_attribute_values
                                where tenant_id = $1 and type_id = d.id) v
          where d.tenant_id = $1 and (i.id + d.id) % 4 <> 0`,
        [t, ids],
      );
      await sql.query(
        `insert into item_tags (tenant_id, item_id, tag_id)
         select distinct $1::int, i.id, g.ids[1 + (i.id * k) % 30]
           from ${batch}, generate_series(1, 2) k,
                (select array_agg(id order by id) ids from tags where tenant_id = $1) g`,
        [t, ids],
      );
      await sql.exec(`set local session_replication_role = origin`);
      // A tenant the statistics do not know yet looks empty, and the planner then reads an
      // item's attributes through (tenant_id, type_id), i.e. all the tenant's attributes for
      // each item built: quadratic in the batch. Statistics that see the first batches' rows
      // (ANALYZE counts this transaction's own) keep the documents on the primary keys.
      if (first <= WORKERS * BATCH)
        await sql.exec('analyze item_prices, item_attributes, item_tags');
      await sql.query(
        `insert into items (tenant_id, id, sku, name, title, model, short_description, long_description,
                            category_id, brand_id, item_status_id, in_stock, rating, date_added)
         overriding system value
         select $1, u.id, 'SKU-' || g, u.name, u.title, u.model, u.short, u.long,
                c.ids[1 + g % 20], b.ids[1 + (g::bigint * 7919) % 200],
                case when g % 50 = 0 then 2 else 1 end, g % 3 <> 0, (g % 50) / 10.0,
                now() - (g || ' minutes')::interval
           from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $8::int[]) with ordinality
                  as u (name, title, model, short, long, id, n),
                lateral (select $7::int + n::int - 1 as g) s,
                (select array_agg(id order by id) ids from categories where tenant_id = $1) c,
                (select array_agg(id order by id) ids from brands where tenant_id = $1) b`,
        [t, ...columns, first, ids],
      );
    });
  // WORKERS batches at a time, each in its own transaction and connection (the database does
  // the work: one CPU per batch); the text of the next batch is made meanwhile.
  const running = new Set<Promise<void>>();
  let done = 0;
  for (let first = 1; first <= ITEMS; first += BATCH) {
    const last = Math.min(ITEMS, first + BATCH - 1);
    const columns: string[][] = [[], [], [], [], []];
    for (let g = first; g <= last; g++) {
      columns[0]!.push(capitalised(phrase(2 + (g % 2))));
      columns[1]!.push(capitalised(phrase(2 + (g % 4))) + (g % 10 < 3 ? ' classic' : ''));
      columns[2]!.push(`${pick().slice(0, 3).toUpperCase()}-${g % 977}`);
      columns[3]!.push(phrase(8 + (g % 8)));
      columns[4]!.push(phrase(20 + (g % 30)) + (g % 100 === 7 ? ' lantern' : ''));
    }
    const batch: Promise<void> = insertBatch(first, last, columns).then(() => {
      running.delete(batch);
      done += last - first + 1;
      process.stderr.write(
        `search seed: ${done} items, ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    });
    running.add(batch);
    if (running.size >= WORKERS) await Promise.race(running);
  }
  await Promise.all(running);
  await database.exec('vacuum analyze');
  const [ids] = await database.query<{ brandId: number; priceTypeId: number }>(
    `select (select id from brands where tenant_id = $1 order by id offset 1 limit 1) as "brandId",
            (select min(id) from price_types where tenant_id = $1) as "priceTypeId"`,
    [t],
  );
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  console.log(JSON.stringify({ items: ITEMS, seedSeconds, ...ids }));
} finally {
  await database.close();
}
