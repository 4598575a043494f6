// Walks a list operation page by page (skip/take, contract §4) and yields its items.
import { ok, type CallResult, type DataOf } from './errors.ts';

export interface PageRange {
  skip: number;
  take: number;
}

/** A page of a list operation: `{Results, TotalCount}`. */
export interface ListPage<Item> {
  Results: Item[];
  TotalCount: number;
}

/**
 * Every item of a list, fetching `take` at a time (default 100, at most 1000):
 * `for await (const app of pages((range) => client.GET('/management/oauth/apps', { params: { query: range } })))`.
 * A failed page throws its ApiError.
 */
export function pages<Result extends CallResult<ListPage<unknown>>>(
  fetchPage: (range: PageRange) => Promise<Result>,
  options?: { take?: number },
): AsyncGenerator<ItemOf<DataOf<Result>>, void, undefined>;
export async function* pages(
  fetchPage: (range: PageRange) => Promise<CallResult<ListPage<unknown>>>,
  options: { take?: number } = {},
): AsyncGenerator<unknown, void, undefined> {
  const take = options.take ?? 100;
  for (let skip = 0; ; skip += take) {
    const page = await ok(fetchPage({ skip, take }));
    yield* page.Results;
    // TotalCount counts the whole filtered set, so the last page is known without asking for one more.
    if (page.Results.length < take || skip + take >= page.TotalCount) return;
  }
}

type ItemOf<Page> = Page extends ListPage<infer Item> ? Item : never;
