// The shape of a list of error codes (the error body's `Code`, contract §4): each code with the
// status it is answered with and what it means. Each module lists its own codes in its
// `<module>-errors.ts` (AppModule.errorCodes), the HTTP layer those any route can answer
// (src/http/error-codes.ts); the OpenAPI document and docs/api.md's "Error codes" are made from
// these lists, and test/http/error-codes.test.ts fails when the source answers a code none has.

export interface ErrorCode {
  /** The status (or statuses) the code is answered with. */
  status: number | readonly number[];
  /** One sentence for integrators: when the code is answered. */
  meaning: string;
}

export type ErrorCodes = Readonly<Record<string, ErrorCode>>;
