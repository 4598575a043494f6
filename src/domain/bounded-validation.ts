// Ajv validators whose error lists stay short whatever the input: a 1 MiB body can break a schema
// half a million times (`[1,1,…]` where objects belong), and listing each break cost a second of
// CPU, hundreds of MiB and a 43 MB answer (issue 46). Past MAX_LISTED_ERRORS the generated code
// still counts each error but makes no object for it: it pushes one shared placeholder instead,
// so that Ajv's own bookkeeping (its count equals its list's length; anyOf and oneOf cut the list
// back to that count) holds unchanged. At MAX_COUNTED_ERRORS it stops: walking the rest of a
// half-million-entry array only to count would cost 20 times what one error costs. The caller
// gets at most MAX_LISTED_ERRORS issues and the number of the others (docs/api.md, "Errors").
//
// The stop is taken inside whatever the validator is doing; inside an anyOf branch that a later
// branch would have passed, it refuses a value the schema takes. A branch has to fail 10,000
// times for that, which none of this API's schemas (nullable fields, small unions) can.
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type { ValidationIssue } from './validation-issues.ts';

/** At most this many errors are listed in an answer or an import result; the rest are counted. */
export const MAX_LISTED_ERRORS = 100;
/** Validation stops at this many errors: ErrorsOmitted is then MAX_COUNTED_ERRORS - listed. */
export const MAX_COUNTED_ERRORS = 10_000;

/** Thrown by the generated code at MAX_COUNTED_ERRORS, with the list made so far. */
class ErrorCeiling {
  readonly errors: ValidationIssue[];
  constructor(errors: ValidationIssue[]) {
    this.errors = errors;
  }
}
const CEILING_KEY = 'errorCeiling';

const UNLISTED: ValidationIssue = {
  instancePath: '',
  keyword: 'unlisted',
  message: 'is one error too many to list',
  params: {},
};
/** The name under which the generated code reaches the placeholder (`self` is the Ajv instance). */
const UNLISTED_KEY = 'unlistedIssue';

/**
 * Ajv's generated code makes each error as `const errN = {…}` and adds it to `vErrors`, counting
 * `errors`; this makes the object only while fewer than MAX_LISTED_ERRORS are counted.
 */
export function boundErrorCode(source: string): string {
  return source
    .replace(
      /const (err\d+) = \{/g,
      `const $1 = errors >= ${MAX_LISTED_ERRORS} ? self.${UNLISTED_KEY} : {`,
    )
    .replace(
      /errors\+\+;/g,
      `errors++;if(errors >= ${MAX_COUNTED_ERRORS}){throw new self.${CEILING_KEY}(vErrors);}`,
    );
}

/** Options for an Ajv instance whose validators list errors boundedly (see `boundAjv`). */
export const BOUNDED_ERROR_OPTIONS: Options = {
  allErrors: true,
  code: { process: boundErrorCode },
};

/** Gives an Ajv made with BOUNDED_ERROR_OPTIONS the placeholder its generated code refers to. */
export function boundAjv<T extends Ajv>(ajv: T): T {
  Object.assign(ajv, { [UNLISTED_KEY]: UNLISTED, [CEILING_KEY]: ErrorCeiling });
  return ajv;
}

export interface BoundedIssues {
  /** At most MAX_LISTED_ERRORS issues, in the order Ajv found them. */
  listed: ValidationIssue[];
  /** How many more there were. */
  unlisted: number;
}

/**
 * Runs a validator of an Ajv made by `boundAjv`: undefined when the data is valid, else its
 * issues, bounded. Ajv's own list is let go of at once (it may hold thousands of placeholders).
 */
export function validateBounded(
  validate: ValidateFunction,
  data: unknown,
  context?: Parameters<ValidateFunction>[1],
): BoundedIssues | undefined {
  let all: ValidationIssue[];
  try {
    if (validate(data, context)) return undefined;
    all = (validate.errors ?? []) as ValidationIssue[];
  } catch (error) {
    if (!(error instanceof ErrorCeiling)) throw error;
    all = error.errors;
  }
  validate.errors = null;
  const listed = all.length > MAX_LISTED_ERRORS ? all.slice(0, MAX_LISTED_ERRORS) : all;
  // Only indices past the limit hold the placeholder; this guards the invariant all the same.
  const real = listed.filter((issue) => issue !== UNLISTED);
  return { listed: real, unlisted: all.length - real.length };
}

/** An issue that stands for the errors not listed (`params.count` of them), last in a list. */
export const UNLISTED_COUNT_KEYWORD = 'unlistedCount';

/** A list that may end with an UNLISTED_COUNT_KEYWORD issue, as the issues and the count. */
export function splitUnlisted(issues: ValidationIssue[]): BoundedIssues {
  const last = issues.at(-1);
  return last?.keyword === UNLISTED_COUNT_KEYWORD
    ? { listed: issues.slice(0, -1), unlisted: Number(last.params.count) }
    : { listed: issues, unlisted: 0 };
}
