// The contract's error body. IdentifierTick is a .NET DateTime.Ticks value, which does not fit
// a JavaScript number exactly, so the body is written as text with the integer spelled out.
import { Type } from 'typebox';
import type { FieldError } from './errors.ts';

const TICKS_AT_UNIX_EPOCH = 621_355_968_000_000_000n;
const TICKS_PER_MILLISECOND = 10_000n;

export function dotnetTicks(at: Date = new Date()): bigint {
  return TICKS_AT_UNIX_EPOCH + BigInt(at.getTime()) * TICKS_PER_MILLISECOND;
}

export function serializeErrorBody(
  requestId: string,
  code: string,
  description: string,
  errors?: FieldError[],
): string {
  const head = `{"IdentifierGuid":${JSON.stringify(requestId)},"IdentifierTick":${dotnetTicks().toString()}`;
  const rest = JSON.stringify({
    FriendlyDescription: description,
    Code: code,
    ...(errors ? { Errors: errors } : {}),
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
      description: '.NET ticks (100 ns since 0001-01-01) when the error happened.',
    }),
    FriendlyDescription: Type.String(),
    Code: Type.String({ description: 'Stable machine-readable error code.' }),
    Errors: Type.Optional(
      Type.Array(Type.Object({ Field: Type.String(), Message: Type.String() }), {
        description: 'Only on validation failures.',
      }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);

/** Route response entries for the contract's error body, e.g. `...errorResponses(409, 412)`. */
export const errorResponses = (...codes: number[]): Record<number, { $ref: string }> =>
  Object.fromEntries(codes.map((code) => [code, { $ref: 'ErrorBody#' }]));
