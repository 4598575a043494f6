// A page of a list: which part the caller asks for, and that part with the size of the whole
// (the `{Results, TotalCount}` shape of every list, contract §4).

export interface Paging {
  skip: number;
  take: number;
}

export interface Page<T> {
  Results: T[];
  TotalCount: number;
}
