// The contract's error body. IdentifierTick is a .NET DateTime.Ticks value (a JSON integer, as
// v4 clients read it into a long), about 6.4e17: beyond 2^53, where a double, and so a
// JavaScript number, holds only every 128th integer. The ticks are rounded to the nearest
// multiple of 128 (12.8 µs; the clock gives milliseconds, which rounding keeps), so that every
// client reads the value sent exactly: .NET as a long, JavaScript's JSON.parse as a number equal
// to it (BigInt(value) gives the digits sent). The body is written as text with the integer
// spelled out, as JSON.stringify of a bigint cannot.
import { Type } from 'typebox';
import { MAX_LISTED_ERRORS } from '../domain/bounded-validation.ts';
import type { FieldError } from './errors.ts';

const TICKS_AT_UNIX_EPOCH = 621_355_968_000_000_000n;
const TICKS_PER_MILLISECOND = 10_000n;
/** The spacing of doubles between 2^59 and 2^60, where ticks of this era lie. */
export const TICK_GRANULARITY = 128n;

export function dotnetTicks(at: Date = new Date()): bigint {
  const ticks = TICKS_AT_UNIX_EPOCH + BigInt(at.getTime()) * TICKS_PER_MILLISECOND;
  const half = TICK_GRANULARITY / 2n;
  return ((ticks + half) / TICK_GRANULARITY) * TICK_GRANULARITY;
}

export function serializeErrorBody(
  requestId: string,
  code: string,
  description: string,
  errors?: FieldError[],
  errorsOmitted = 0,
): string {
  const head = `{"IdentifierGuid":${JSON.stringify(requestId)},"IdentifierTick":${dotnetTicks().toString()}`;
  // Every list is bounded here too, whoever made it (a service's own checks included).
  const listed =
    errors && errors.length > MAX_LISTED_ERRORS ? errors.slice(0, MAX_LISTED_ERRORS) : errors;
  const omitted = errorsOmitted + (errors?.length ?? 0) - (listed?.length ?? 0);
  const rest = JSON.stringify({
    FriendlyDescription: description,
    Code: code,
    ...(listed ? { Errors: listed } : {}),
    ...(omitted > 0 ? { ErrorsOmitted: omitted } : {}),
  });
  return `${head},${rest.slice(1)}`;
}

export const ErrorBodySchema = Type.Object(
  {
    IdentifierGuid: Type.String({
      format: 'uuid',
      description: 'Equals the X-Request-Id response header.',
    }),
    IdentifierTick: Type.Integer({
      format: 'int64',
      multipleOf: Number(TICK_GRANULARITY),
      description:
        '.NET ticks (100 ns since 0001-01-01) when the error happened, rounded to a multiple of ' +
        '128 (12.8 µs): a JSON integer that a .NET long and a JavaScript number (a double) both ' +
        'hold exactly.',
    }),
    FriendlyDescription: Type.String(),
    Code: Type.String({ description: 'Stable machine-readable error code.' }),
    Errors: Type.Optional(
      Type.Array(Type.Object({ Field: Type.String(), Message: Type.String() }), {
        maxItems: MAX_LISTED_ERRORS,
        description: `Only on validation failures; at most ${MAX_LISTED_ERRORS} (ErrorsOmitted counts the rest).`,
      }),
    ),
    ErrorsOmitted: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `How many more errors the request has than the ${MAX_LISTED_ERRORS} Errors lists; absent when Errors lists them all.`,
      }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);

/** Route response entries for the contract's error body, e.g. `...errorResponses(409, 412)`. */
export const errorResponses = (...codes: number[]): Record<number, { $ref: string }> =>
  Object.fromEntries(codes.map((code) => [code, { $ref: 'ErrorBody#' }]));
