// The events module's error codes.
import { DomainError, conflict, invalid } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

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

/** The codes the events module answers besides the shared ones (src/http/error-codes.ts). */
export const eventsErrorCodes = {
  EventNoLongerKept: {
    status: 409,
    meaning: "The delivery's event is older than the retention period and cannot be sent again.",
  },
  InvalidEventId: { status: 400, meaning: 'after is not an event Id as the feed gives it.' },
  InvalidReplayRange: { status: 400, meaning: 'A replay whose From is not before its To.' },
  InvalidWebhookUrl: {
    status: 400,
    meaning:
      'The URL is not https (or http to a host:port of WEBHOOK_ALLOWED_HOSTS), or has credentials.',
  },
  UnknownEventType: { status: 400, meaning: 'EventTypes names a type that does not exist.' },
} as const satisfies ErrorCodes;
