// The analytics module's error codes (contract §4 error body).
import { DomainError, invalid, type FieldError } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const invalidRecords = (errors: FieldError[]) =>
  invalid(
    'InvalidAnalyticsRecord',
    `The batch was refused, nothing was stored: ${errors[0]!.Field}: ${errors[0]!.Message}` +
      (errors.length > 1 ? ` (and ${errors.length - 1} more).` : ''),
    errors,
  );

export const unknownCounter = (name: string) =>
  new DomainError('not-found', 'UnknownCounter', `There is no analytics counter "${name}".`);

export const invalidQuery = (field: string, message: string) =>
  invalid('InvalidAnalyticsQuery', `${field}: ${message}`, [{ Field: field, Message: message }]);

export const invalidContinuationToken = () =>
  invalid(
    'InvalidContinuationToken',
    'The continuation token is not one this server issued for this counter and these filters.',
    [{ Field: 'continuationKey', Message: 'not a valid continuation token for this query' }],
  );

export const invalidTimeZone = (zone: string) =>
  invalid('InvalidTimeZone', `"${zone}" is not an IANA time zone.`, [
    { Field: 'TimeZone', Message: 'must be an IANA time zone name such as Europe/Istanbul' },
  ]);

export const invalidWeights = (field: string, message: string) =>
  invalid('InvalidTrendingActionTypes', `${field}: ${message}`, [
    { Field: field, Message: message },
  ]);

/** The codes the analytics module answers besides the shared ones (src/http/error-codes.ts). */
export const analyticsErrorCodes = {
  InvalidAnalyticsQuery: {
    status: 400,
    meaning: 'A filter of an analytics query is not valid; Errors names it.',
  },
  InvalidAnalyticsRecord: {
    status: 400,
    meaning: 'A record of the batch is not valid; nothing of the batch was stored.',
  },
  InvalidContinuationToken: {
    status: 400,
    meaning:
      'The continuation token is not one this server issued for this counter and these filters.',
  },
  InvalidTimeZone: { status: 400, meaning: 'TimeZone is not an IANA time zone name.' },
  InvalidTrendingActionTypes: {
    status: 400,
    meaning: 'The trending action types or their weights are not valid.',
  },
  UnknownCounter: { status: 404, meaning: 'There is no analytics counter of that name.' },
} as const satisfies ErrorCodes;
