// The history module's error codes (contract §4 error body); the codes of the history routes that
// every module declares are the shared ones (src/http/error-codes.ts: HistoryVersionNotFound,
// InvalidHistoryContinuation).
import { invalid } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const invalidHistoryRange = () =>
  invalid('InvalidHistoryQuery', 'From: must not be after To.', [
    { Field: 'From', Message: 'must not be after To' },
  ]);

export const historyErrorCodes = {
  InvalidHistoryQuery: {
    status: 400,
    meaning: 'A filter of the change history list is not valid; Errors names it.',
  },
} as const satisfies ErrorCodes;
