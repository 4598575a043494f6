// The events module's error codes.
import { DomainError, conflict, invalid } from '../../domain/domain-error.ts';

export const invalidEventId = (id: string) =>
  invalid(
    'InvalidEventId',
    `"${id}" is not an event Id (evt_ and two 16-digit hex halves, each below 8000000000000000).`,
    [{ Field: 'after', Message: 'expected an event Id as the feed gives it' }],
  );

export const invalidWebhookUrl = (message: string) =>
  invalid('InvalidWebhookUrl', message, [{ Field: 'Url', Message: message }]);

export const unknownEventType = (pattern: string) =>
  invalid(
    'UnknownEventType',
    `"${pattern}" is not an event type, a resource wildcard (item.*) or *.`,
    [{ Field: 'EventTypes', Message: `unknown event type "${pattern}"` }],
  );

export const invalidReplayRange = () =>
  invalid('InvalidReplayRange', 'From must be before To.', [
    { Field: 'From', Message: 'must be before To' },
  ]);

export const eventGone = () =>
  conflict(
    'EventNoLongerKept',
    'The event of this delivery is older than the retention period and can no longer be sent.',
  );

export const subscriptionNotFound = (id: number) =>
  new DomainError('not-found', 'NotFound', `Webhook subscription ${id} was not found.`);

export const deliveryNotFound = (id: number) =>
  new DomainError('not-found', 'NotFound', `Delivery ${id} was not found.`);
