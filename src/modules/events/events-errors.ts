// The events module's error codes.
import { ApiError, badRequest, conflict } from '../../http/errors.ts';

export const invalidEventId = (id: string) =>
  badRequest('InvalidEventId', `"${id}" is not an event Id (evt_ and 32 hex digits).`, [
    { Field: 'after', Message: 'expected an event Id as the feed gives it' },
  ]);

export const invalidWebhookUrl = (message: string) =>
  badRequest('InvalidWebhookUrl', message, [{ Field: 'Url', Message: message }]);

export const unknownEventType = (pattern: string) =>
  badRequest(
    'UnknownEventType',
    `"${pattern}" is not an event type, a resource wildcard (item.*) or *.`,
    [{ Field: 'EventTypes', Message: `unknown event type "${pattern}"` }],
  );

export const invalidReplayRange = () =>
  badRequest('InvalidReplayRange', 'From must be before To.', [
    { Field: 'From', Message: 'must be before To' },
  ]);

export const eventGone = () =>
  conflict(
    'EventNoLongerKept',
    'The event of this delivery is older than the retention period and can no longer be sent.',
  );

export const subscriptionNotFound = (id: number) =>
  new ApiError(404, 'NotFound', `Webhook subscription ${id} was not found.`);

export const deliveryNotFound = (id: number) =>
  new ApiError(404, 'NotFound', `Delivery ${id} was not found.`);
