// Prints EXPLAIN ANALYZE of the search scenarios' statements on a seeded tenant (for
// docs/search-plans.md). Usage: [EXPLAIN_RUNS=7] node bench/search-explain.ts <tenant>
// EXPLAIN_ROUND_TRIPS=<n>: instead, times each statement as the server sends it, n times
// unprepared and n times prepared (alternating, one connection), and prints the medians: what
// parsing and planning cost beside the execution. EXPLAIN_EXACT_LIMIT (default 5000): the
// server's SEARCH_EXACT_COUNT_LIMIT; a text query over it is shown with its estimate statement.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection/database.ts';
import { buildEstimate, sampleLevel } from '../src/modules/catalog/search/search-estimate-sql.ts';
import {
  buildSearch,
  type SearchCriteria,
  type SearchStatement,
} from '../src/modules/catalog/search/search-sql.ts';
import { TEXT_QUERY } from '../src/modules/catalog/search/search-filters-sql.ts';
import { queryWords } from '../src/modules/catalog/search/search-service.ts';

const tenantName = process.argv[2];
if (!tenantName) throw new Error('usage: node bench/search-explain.ts <tenant>');
const database = await openDatabase(loadConfig());
try {
  const [ids] = await database.query<{ t: number; brand: number; price: number }>(
    `select t.id as t, (select id from brands where tenant_id = t.id order by id offset 1 limit 1) as brand,
            (select min(id) from price_types where tenant_id = t.id) as price
       from tenants t where t.name = $1`,
    [tenantName],
  );
  if (!ids) throw new Error(`tenant ${tenantName} not found`);
  const base: SearchCriteria = {
    tenantId: ids.t,
    prefixAll: false,
    typos: true,
    includeSubcategories: true,
    attributes: [],
    onlyMasterItems: false,
    includePassiveItems: false,
    order: 'relevance',
    descending: false,
    skip: 0,
    take: 20,
    staticNavigation: true,
    dynamicNavigation: true,
    checkReferences: true,
  };
  const described: [string, Partial<SearchCriteria>][] = [
    ['1% word + navigations', { words: queryWords('lantern') }],
    ['30% word + navigations', { words: queryWords('classic') }],
    ['filters only + navigations', { brandId: ids.brand, priceTypeId: ids.price, maxPrice: 300 }],
    ['typo', { words: queryWords('lanturn'), staticNavigation: false, dynamicNavigation: false }],
    [
      'deep page (Skip 5000, by Title)',
      { order: 'title', skip: 5000, staticNavigation: false, dynamicNavigation: false },
    ],
  ];
  // The text query is built by a statement of its own before the search, as the service does.
  const scenarios: [string, Partial<SearchCriteria>][] = [];
  for (const [name, criteria] of described) {
    if (!criteria.words) {
      scenarios.push([name, criteria]);
      continue;
    }
    const [row] = await database.query<{ q: string | null }>(TEXT_QUERY, [
      ids.t,
      criteria.words,
      false,
      true,
    ]);
    scenarios.push([name, { ...criteria, query: row!.q }]);
  }
  // On a busy host one plan's times are noise: the execution time is also given as the minimum
  // and median of RUNS executions (EXPLAIN ANALYZE without per-node timing).
  const RUNS = Number(process.env.EXPLAIN_RUNS ?? 7);
  const LIMIT = Number(process.env.EXPLAIN_EXACT_LIMIT ?? 5000);
  const ROUND_TRIPS = Number(process.env.EXPLAIN_ROUND_TRIPS ?? 0);
  if (ROUND_TRIPS > 0) {
    const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    const timed = async (run: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await run();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    console.log('| scenario | unprepared, median ms | prepared, median ms |\n| --- | --- | --- |');
    for (const [index, [name, criteria]] of scenarios.entries()) {
      const { sql, params } = buildSearch({ ...base, ...criteria }, LIMIT);
      const plain: number[] = [];
      const prepared: number[] = [];
      for (let run = 0; run < ROUND_TRIPS; run++) {
        plain.push(await timed(() => database.query(sql, params)));
        prepared.push(await timed(() => database.prepared(`explain-${index}`, sql, params)));
      }
      console.log(`| ${name} | ${median(plain).toFixed(2)} | ${median(prepared).toFixed(2)} |`);
    }
  }
  // A text query over the limit is answered by a second statement, the estimate: both are shown.
  const explained: [string, SearchStatement][] = [];
  for (const [name, criteria] of ROUND_TRIPS > 0 ? [] : scenarios) {
    const search = buildSearch({ ...base, ...criteria }, LIMIT);
    explained.push([name, search]);
    const [row] = await database.query<{ over?: boolean; probe: number }>(
      search.sql,
      search.params,
    );
    if (row!.over) {
      const level = sampleLevel(LIMIT, row!.probe);
      explained.push([
        `${name}: the estimate (sample level ${level})`,
        buildEstimate({ ...base, ...criteria }, LIMIT, criteria.query ?? '', level),
      ]);
    }
  }
  for (const [name, statement] of explained) {
    await database.query(statement.sql, statement.params); // warm
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const rows = await database.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, timing off) ${statement.sql}`,
        statement.params,
      );
      times.push(Number(/Execution Time: ([\d.]+)/.exec(rows.at(-1)!['QUERY PLAN'])![1]));
    }
    times.sort((a, b) => a - b);
    const plan = await database.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off, timing on) ${statement.sql}`,
      statement.params,
    );
    console.log(
      `### ${name}\n\nExecution time over ${RUNS} runs: min ${times[0]!.toFixed(1)} ms, median ${times[
        Math.floor(RUNS / 2)
      ]!.toFixed(
        1,
      )} ms. One run's plan:\n\n\`\`\`\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\`\n`,
    );
  }
} finally {
  await database.close();
}
